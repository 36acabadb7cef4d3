// No text of either catalog shows a person an internal identifier (issue 25): a camelCase product
// code (`simIndices`) or a SNAKE_CASE name (`US10Y_MONTHLY`, `SANDBOX_TEST_CLOCK`), with the same
// pattern the browser's layout checks apply to every page. Placeholders (`{name}`) are the code's,
// not the text's, and are left out.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { internalIdentifier } from "../e2e/layout-checks.ts";

const entries = (locale: "en" | "es") =>
  [...readFileSync(`locales/${locale}/messages.po`, "utf8").matchAll(/^msgstr "(.*)"$/gm)].map(
    (m) => m[1]!,
  );

describe.each(["en", "es"] as const)("the %s catalog", (locale) => {
  it("has texts, none with an internal identifier", () => {
    const texts = entries(locale);
    expect(texts.length).toBeGreaterThan(1000);
    const pattern = new RegExp(internalIdentifier.source, "g");
    const found = texts.flatMap((text) =>
      [...text.replace(/\{[^}]*\}/g, "").matchAll(pattern)].map((m) => `${m[0]} in "${text}"`),
    );
    expect(found).toEqual([]);
  });

  it("the check finds an identifier where there is one", () => {
    const pattern = new RegExp(internalIdentifier.source, "g");
    expect("only with SANDBOX_TEST_CLOCK=true".match(pattern)).toEqual(["SANDBOX_TEST_CLOCK"]);
    expect("plans of simIndices".match(pattern)).toEqual(["simIndices"]);
  });
});
