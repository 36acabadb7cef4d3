import { describe, expect, it } from "vitest";
import { passwordStrength } from "../../machines/guards/password-strength.ts";
import { PASSWORD_MIN_LENGTH } from "../../src/contract/accounts.ts";

describe("passwordStrength (docs/accounts.md)", () => {
  it("uses the server's minimum of 8 characters", () => {
    expect(PASSWORD_MIN_LENGTH).toBe(8);
  });

  it.each([
    ["", "empty"],
    // Under 8 characters: weak whatever the mix.
    ["a", "weak"],
    ["Ab1!", "weak"],
    ["Ab1!xyz", "weak"],
    // One kind of character: weak whatever the length.
    ["abcdefgh", "weak"],
    ["ABCDEFGHIJKLMNOP", "weak"],
    ["1234567890123", "weak"],
    ["!!!!!!!!!!!!", "weak"],
    ["ñññññññññññññ", "weak"],
    // From 8 characters with two kinds: medium.
    ["abcdefg1", "medium"],
    ["abcdefgH", "medium"],
    ["abcdefg!", "medium"],
    ["12345678!", "medium"],
    // 8 to 11 characters with three or four kinds: still medium.
    ["abcdef1A", "medium"],
    ["Abcdefgh1!x", "medium"],
    // 12 or more with only two kinds: medium.
    ["abcdefghijk1", "medium"],
    ["ABCDEFGHIJKLMNOPQRSTUVWXyz", "medium"],
    // 12 or more with three kinds: strong.
    ["abcdefghij1A", "strong"],
    ["abcdefghij1!", "strong"],
    ["ABCDEFGHIJ1!", "strong"],
    ["Correct-Horse-42", "strong"],
    ["Demo-portfolio-2026", "strong"],
    ["correct horse battery 9", "strong"],
  ])("rates %j as %s", (password, expected) => {
    expect(passwordStrength(password)).toBe(expected);
  });

  it("counts a space or any non-ASCII letter as an 'other' character", () => {
    expect(passwordStrength("abcdefg ")).toBe("medium");
    expect(passwordStrength("abcdefgñ")).toBe("medium");
  });
});
