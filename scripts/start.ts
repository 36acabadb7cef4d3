// `npm start`: builds the app when its sources are newer than the build, then serves app and API on one port.
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { run } from "./lib/run.ts";

const root = path.resolve(import.meta.dirname, "..");
const built = path.join(root, "dist", "index.html");

function newestMtime(entry: string): number {
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(entry).reduce(
    (max, name) => Math.max(max, newestMtime(path.join(entry, name))),
    stat.mtimeMs,
  );
}

const sources = [
  "src",
  "machines",
  "locales",
  "public",
  "index.html",
  "vite.config.ts",
  "package.json",
].map((p) => path.join(root, p));
const needsBuild =
  !existsSync(built) ||
  Math.max(...sources.filter(existsSync).map(newestMtime)) > statSync(built).mtimeMs;

if (needsBuild) {
  console.log("Building the app…");
  const code = await run(process.execPath, [
    path.join(root, "node_modules/vite/bin/vite.js"),
    "build",
    "--logLevel",
    "warn",
  ]);
  if (code !== 0) process.exit(code);
}
await import("../src/server/main.ts");
