import { Schema } from "effect";
import { Edition } from "./common.ts";

export const DatabaseHealth = Schema.Struct({
  status: Schema.Literals(["up", "down"]),
  driver: Schema.Literals(["pglite", "postgres"]),
  latencyMs: Schema.NullOr(Schema.Number),
  migrations: Schema.NullOr(Schema.Number),
});
export type DatabaseHealth = typeof DatabaseHealth.Type;

export const HealthResponse = Schema.Struct({
  status: Schema.Literals(["ok", "degraded"]),
  version: Schema.String,
  edition: Edition,
  uptimeSeconds: Schema.Number,
  time: Schema.String,
  database: DatabaseHealth,
});
export type HealthResponse = typeof HealthResponse.Type;
