import { describe, expect, it } from "vitest";
import { formatInputNumber, parseLocaleNumber } from "../../src/ui/parse-number.ts";

describe("parseLocaleNumber in Spanish", () => {
  const es = (text: string) => parseLocaleNumber(text, "es");

  it("reads the Spanish format: dot for thousands, comma for decimals", () => {
    expect(es("3.323,96")).toBe(3323.96);
    expect(es("3323,96")).toBe(3323.96);
    expect(es("10.000")).toBe(10000);
    expect(es("1.234.567,5")).toBe(1234567.5);
    expect(es("0,5")).toBe(0.5);
    expect(es(",5")).toBe(0.5);
    expect(es("900")).toBe(900);
  });

  it("reads what is pasted with a currency, spaces or the English format", () => {
    expect(es("10.000,00 €")).toBe(10000);
    expect(es("10\u00a0000,00\u00a0€")).toBe(10000);
    expect(es("EUR 3.323,96")).toBe(3323.96);
    expect(es("3,323.96")).toBe(3323.96);
    expect(es("1,234,567.5")).toBe(1234567.5);
  });

  it("takes a single dot that does not group three digits as the decimal point (numeric keypad)", () => {
    expect(es("3.5")).toBe(3.5);
    expect(es("3.323")).toBe(3323);
  });

  it("reads a minus sign", () => {
    expect(es("-1.000,5")).toBe(-1000.5);
    expect(es("\u22122,5")).toBe(-2.5);
  });

  it("refuses what is not a number", () => {
    for (const text of ["", "  ", "abc", "1,2,3", "12.34.5", "1.2345,6", "3,5,", "--1", "1e5", "€"])
      expect(es(text), text).toBeNull();
  });
});

describe("parseLocaleNumber in English", () => {
  const en = (text: string) => parseLocaleNumber(text, "en");

  it("reads the English format: comma for thousands, dot for decimals", () => {
    expect(en("3,323.96")).toBe(3323.96);
    expect(en("3323.96")).toBe(3323.96);
    expect(en("10,000")).toBe(10000);
    expect(en("1,234,567.5")).toBe(1234567.5);
    expect(en(".5")).toBe(0.5);
    expect(en("3.323")).toBe(3.323);
  });

  it("reads what is pasted with a currency, spaces or the Spanish format", () => {
    expect(en("$1,000.00")).toBe(1000);
    expect(en("USD 1,000")).toBe(1000);
    expect(en("3.323,96")).toBe(3323.96);
    expect(en("1.234.567")).toBe(1234567);
    expect(en("12 %")).toBe(12);
  });

  it("takes a single comma that does not group three digits as the decimal point", () => {
    expect(en("3,5")).toBe(3.5);
    expect(en("3,323")).toBe(3323);
  });

  it("refuses what is not a number", () => {
    for (const text of ["", "x1", "1,2,3", "1,23,456", "1.2.3", "Infinity", "NaN"])
      expect(en(text), text).toBeNull();
  });
});

describe("formatInputNumber", () => {
  it("groups every number in both languages, up to two decimals", () => {
    expect(formatInputNumber(3323.96, "es")).toBe("3.323,96");
    expect(formatInputNumber(3323.96, "en")).toBe("3,323.96");
    expect(formatInputNumber(10000, "es")).toBe("10.000");
    expect(formatInputNumber(10000, "en")).toBe("10,000");
    expect(formatInputNumber(0.125, "es", 3)).toBe("0,125");
  });

  it("reads back what it writes", () => {
    for (const value of [0, 0.5, 12.34, 3323.96, 10000, 1234567.89, -2500.5])
      for (const locale of ["en", "es"] as const)
        expect(parseLocaleNumber(formatInputNumber(value, locale), locale)).toBe(value);
  });
});
