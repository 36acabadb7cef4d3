import type { Schema } from "effect";
import { HealthResponse } from "./health.ts";
import { RuntimeConfig } from "./runtime-config.ts";

export type HttpMethod = "GET" | "POST" | "PUT" | "DELETE";

/** One API call: its method, its path under the API base, and the schemas of what goes each way. */
export interface Endpoint<Res extends Schema.Top = Schema.Top, Body extends Schema.Top | undefined = Schema.Top | undefined> {
  readonly method: HttpMethod;
  readonly path: string;
  readonly body?: Body;
  readonly response: Res;
}

const endpoint = <Res extends Schema.Top, Body extends Schema.Top | undefined = undefined>(
  e: Endpoint<Res, Body>,
): Endpoint<Res, Body> => e;

/** Every call of the API, shared by the server (validation) and the client (decoding). */
export const endpoints = {
  health: endpoint({ method: "GET", path: "/health", response: HealthResponse }),
  config: endpoint({ method: "GET", path: "/config", response: RuntimeConfig }),
} as const;
