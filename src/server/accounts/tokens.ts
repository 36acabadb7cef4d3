import { createHash, randomBytes } from "node:crypto";

/** 256 random bits, URL-safe: session and email tokens. */
export const newToken = (): string => randomBytes(32).toString("base64url");

/** Tokens are stored only as their SHA-256, so a copy of the database opens no session. */
export const hashToken = (token: string): string =>
  createHash("sha256").update(token).digest("hex");
