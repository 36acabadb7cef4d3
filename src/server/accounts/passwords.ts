import { argon2, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * Argon2id with OWASP's recommended minimum (Password Storage Cheat Sheet, 2025):
 * 19 MiB of memory, 2 passes, 1 lane. Stored as a PHC string so parameters can be raised later.
 */
const PARAMS = { memory: 19_456, passes: 2, parallelism: 1, tagLength: 32 } as const;

const derive = (
  password: string,
  salt: Buffer,
  p: { memory: number; passes: number; parallelism: number; tagLength: number },
) =>
  new Promise<Buffer>((resolve, reject) =>
    argon2("argon2id", { message: password, nonce: salt, ...p }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, PARAMS);
  return `$argon2id$v=19$m=${PARAMS.memory},t=${PARAMS.passes},p=${PARAMS.parallelism}$${salt.toString("base64url")}$${key.toString("base64url")}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const m = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$([\w-]+)\$([\w-]+)$/.exec(stored);
  if (!m) return false;
  const expected = Buffer.from(m[5]!, "base64url");
  const key = await derive(password, Buffer.from(m[4]!, "base64url"), {
    memory: Number(m[1]),
    passes: Number(m[2]),
    parallelism: Number(m[3]),
    tagLength: expected.length,
  });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** A hash that no password matches, verified when the email is unknown so both cases take as long. */
export const unknownAccountHash = await hashPassword(randomBytes(24).toString("base64url"));
