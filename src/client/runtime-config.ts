import { RuntimeConfig } from "../contract/runtime-config.ts";
import { decode } from "../contract/decode.ts";

/** Reads the configuration the server embedded in the page (src/server/spa.ts). */
export function readRuntimeConfig(doc: Document = document): RuntimeConfig {
  const text = doc.getElementById("app-config")?.textContent;
  if (!text) throw new Error("The page carries no app configuration");
  const result = decode(RuntimeConfig, JSON.parse(text));
  if (!result.ok) throw new Error(`Invalid app configuration: ${JSON.stringify(result.issues)}`);
  return result.value;
}
