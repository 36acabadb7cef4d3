import { argon2 } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  hashPassword,
  unknownAccountHash,
  verifyPassword,
} from "../../src/server/accounts/passwords.ts";

const PHC = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$([\w-]+)\$([\w-]+)$/;

describe("passwords", () => {
  it("hashes to a PHC argon2id string with m=19456, t=2, p=1, a 16-byte salt and a 32-byte key", async () => {
    const hash = await hashPassword("Correct-Horse-42");
    const m = PHC.exec(hash);
    expect(m).not.toBeNull();
    expect(m!.slice(1, 4)).toEqual(["19456", "2", "1"]);
    expect(Buffer.from(m![4]!, "base64url")).toHaveLength(16);
    expect(Buffer.from(m![5]!, "base64url")).toHaveLength(32);
    expect(hash).not.toContain("Correct-Horse-42");
  });

  it("derives the key with argon2id itself (checked against node:crypto with the stored salt)", async () => {
    const hash = await hashPassword("pässwörd with ünïcode");
    const [, , , , salt, key] = PHC.exec(hash)!;
    const expected = await new Promise<Buffer>((resolve, reject) =>
      argon2(
        "argon2id",
        {
          message: "pässwörd with ünïcode",
          nonce: Buffer.from(salt!, "base64url"),
          memory: 19_456,
          passes: 2,
          parallelism: 1,
          tagLength: 32,
        },
        (error, derived) => (error ? reject(error) : resolve(derived)),
      ),
    );
    expect(key).toBe(expected.toString("base64url"));
  });

  it("verifies the right password and refuses others", async () => {
    const hash = await hashPassword("Correct-Horse-42");
    expect(await verifyPassword("Correct-Horse-42", hash)).toBe(true);
    expect(await verifyPassword("correct-horse-42", hash)).toBe(false);
    expect(await verifyPassword("Correct-Horse-42 ", hash)).toBe(false);
    expect(await verifyPassword("", hash)).toBe(false);
  });

  it("salts every hash: the same password twice gives different hashes, both valid", async () => {
    const a = await hashPassword("same-password-1");
    const b = await hashPassword("same-password-1");
    expect(a).not.toBe(b);
    expect(PHC.exec(a)![4]).not.toBe(PHC.exec(b)![4]);
    expect(await verifyPassword("same-password-1", a)).toBe(true);
    expect(await verifyPassword("same-password-1", b)).toBe(true);
  });

  it("refuses anything that is not an argon2id PHC string", async () => {
    for (const stored of [
      "",
      "plain-text-password",
      "$argon2i$v=19$m=19456,t=2,p=1$c2FsdA$a2V5",
      "$2b$10$abcdefghijklmnopqrstuu",
    ]) {
      expect(await verifyPassword("plain-text-password", stored)).toBe(false);
    }
  });

  it("verifies with the parameters stored in the hash, so they can be raised later", async () => {
    const hash = await hashPassword("Correct-Horse-42");
    const [, , , , salt] = PHC.exec(hash)!;
    const older = await new Promise<Buffer>((resolve, reject) =>
      argon2(
        "argon2id",
        {
          message: "Correct-Horse-42",
          nonce: Buffer.from(salt!, "base64url"),
          memory: 8_192,
          passes: 1,
          parallelism: 1,
          tagLength: 32,
        },
        (error, derived) => (error ? reject(error) : resolve(derived)),
      ),
    );
    const stored = `$argon2id$v=19$m=8192,t=1,p=1$${salt}$${older.toString("base64url")}`;
    expect(await verifyPassword("Correct-Horse-42", stored)).toBe(true);
    expect(await verifyPassword("Correct-Horse-43", stored)).toBe(false);
  });

  it("has a hash for unknown accounts that is a real argon2id hash no likely password matches", async () => {
    expect(unknownAccountHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    for (const guess of ["", "password", "Demo-portfolio-2026"]) {
      expect(await verifyPassword(guess, unknownAccountHash)).toBe(false);
    }
  });
});
