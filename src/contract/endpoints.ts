import type { Schema } from "effect";
import { HealthResponse } from "./health.ts";
import { RuntimeConfig } from "./runtime-config.ts";

export type HttpMethod = "GET" | "POST" | "PUT" | "DELETE";

/** One API call: its method, its path under the API base, and the schemas of what goes each way. */
/** A schema that decodes without services (all of the contract's do). */
export type ContractSchema = Schema.Codec<any, any, never, never>;

export interface Endpoint<
  Res extends ContractSchema = ContractSchema,
  Body extends ContractSchema | undefined = ContractSchema | undefined,
> {
  readonly method: HttpMethod;
  readonly path: string;
  readonly body?: Body;
  readonly response: Res;
}

const endpoint = <Res extends ContractSchema, Body extends ContractSchema | undefined = undefined>(
  e: Endpoint<Res, Body>,
): Endpoint<Res, Body> => e;

/** Every call of the API, shared by the server (validation) and the client (decoding). */
export const endpoints = {
  health: endpoint({ method: "GET", path: "/health", response: HealthResponse }),
  config: endpoint({ method: "GET", path: "/config", response: RuntimeConfig }),
} as const;
