// The dictionary's search on the real dictionary (content/dictionary), in both languages: ranked
// by title match, then prefix, then aliases, then words anywhere; every word of a query of several
// must match (issue 25: "diversificacion" listed "Cartera equiponderada" first, and "efficient
// portfolio" or "cartera eficiente" found nothing).
import { describe, expect, it } from "vitest";
import { searchEntries } from "../../src/features/education/search.ts";
import { loadContent } from "../../src/server/education/content.ts";

const { dictionary } = loadContent();
const terms = (locale: "en" | "es", query: string) =>
  searchEntries(dictionary[locale], query).map((e) => e.term);

describe("dictionary search", () => {
  it("puts the entry whose term is the query first, accents and case ignored", () => {
    expect(terms("es", "diversificacion")[0]).toBe("Diversificación");
    expect(terms("es", "VOLATILIDÁD")[0]).toBe("Volatilidad");
    expect(terms("en", "beta")[0]).toBe("Beta");
  });

  it("ranks every term holding the query before an entry that only has it as an alias", () => {
    const found = terms("es", "diversificacion");
    const byAlias = found.indexOf("Cartera equiponderada"); // alias "Diversificación ingenua"
    expect(byAlias).toBeGreaterThan(0);
    const inTerm = found.filter((t) => /diversificación/i.test(t));
    expect(inTerm.length).toBeGreaterThan(1);
    for (const t of inTerm) expect(found.indexOf(t)).toBeLessThan(byAlias);
  });

  it("ranks a term containing the query before entries that only mention it", () => {
    const found = terms("en", "frontier");
    expect(found[0]).toBe("Efficient frontier");
    const mentions = searchEntries(dictionary.en, "frontier").filter(
      (e) => !`${e.term} ${e.aliases.join(" ")}`.toLowerCase().includes("frontier"),
    );
    expect(mentions.length).toBeGreaterThan(0);
    for (const e of mentions) expect(found.indexOf(e.term)).toBeGreaterThan(0);
  });

  it("finds entries by several words, each matching somewhere, title words first", () => {
    expect(terms("en", "efficient portfolio")).toContain("Efficient frontier");
    expect(terms("es", "cartera eficiente")).toContain("Frontera eficiente");
    // Both words in the term come before both words only in the text.
    expect(terms("en", "market hypothesis")[0]).toBe("Efficient market hypothesis");
    expect(terms("es", "mercados hipotesis")[0]).toBe("Hipótesis de los mercados eficientes");
  });

  it("needs every word: a word found nowhere finds nothing", () => {
    expect(terms("en", "volatility qwertyuiop")).toEqual([]);
    expect(terms("es", "cartera qwertyuiop")).toEqual([]);
  });

  it("keeps the dictionary's order for an empty query and within a rank", () => {
    expect(terms("en", "  ")).toEqual(dictionary.en.map((e) => e.term));
    const found = searchEntries(dictionary.en, "risk");
    const inTerm = found.filter((e) => e.term.toLowerCase().startsWith("risk"));
    const order = dictionary.en.filter((e) => inTerm.includes(e)).map((e) => e.term);
    expect(inTerm.map((e) => e.term)).toEqual(order);
  });
});
