import { describe, expect, it } from "vitest";
import {
  firstWeekday,
  formatDate,
  formatMoney,
  formatNumber,
  formatPercent,
  toIntlLocale,
} from "../../src/ui/format.ts";

/** Intl puts a no-break space (U+00A0 or U+202F) where a human writes a space. */
const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, " ");

describe("formatDate", () => {
  const date = new Date(Date.UTC(2026, 10, 21));

  it("writes mm/dd/yy in English", () => {
    expect(formatDate(date, "en")).toBe("11/21/26");
  });

  it("writes dd/mm/yy in Spanish", () => {
    expect(formatDate(date, "es")).toBe("21/11/26");
  });

  it("pads single digits", () => {
    expect(formatDate(new Date(Date.UTC(2027, 0, 5)), "en")).toBe("01/05/27");
    expect(formatDate(new Date(Date.UTC(2027, 0, 5)), "es")).toBe("05/01/27");
  });

  it("reads ISO strings, in UTC whatever the local time zone", () => {
    expect(formatDate("2026-11-21T23:30:00.000Z", "es")).toBe("21/11/26");
    expect(formatDate("2026-11-21T00:10:00.000Z", "en")).toBe("11/21/26");
  });
});

describe("firstWeekday", () => {
  it("is Sunday in English and Monday in Spanish", () => {
    expect(firstWeekday.en).toBe(0);
    expect(firstWeekday.es).toBe(1);
  });
});

describe("numbers", () => {
  it("maps the languages to US and Spain conventions", () => {
    expect(toIntlLocale("en")).toBe("en-US");
    expect(toIntlLocale("es")).toBe("es-ES");
  });

  it("formats money with a point for decimals in English", () => {
    expect(formatMoney(1234567.891, "USD", "en")).toBe("$1,234,567.89");
    expect(formatMoney(1234567.891, "EUR", "en")).toBe("€1,234,567.89");
  });

  it("formats money with a comma for decimals and the symbol after in Spanish", () => {
    expect(plain(formatMoney(1234567.891, "EUR", "es"))).toBe("1.234.567,89 €");
    expect(plain(formatMoney(0.5, "USD", "es"))).toBe("0,50 US$");
  });

  it("always shows two decimals for money", () => {
    expect(formatMoney(5, "EUR", "en")).toBe("€5.00");
    expect(plain(formatMoney(5, "EUR", "es"))).toBe("5,00 €");
  });

  it("formats percentages with two decimals by default", () => {
    expect(formatPercent(0.1234, "en")).toBe("12.34%");
    expect(plain(formatPercent(0.1234, "es"))).toBe("12,34 %");
  });

  it("formats percentages with the requested decimals", () => {
    expect(formatPercent(0.5, "en", 0)).toBe("50%");
    expect(plain(formatPercent(-0.01234, "es", 1))).toBe("-1,2 %");
  });

  it("formats plain numbers per language", () => {
    expect(formatNumber(1234567.5, "en")).toBe("1,234,567.5");
    expect(formatNumber(1234567.5, "es")).toBe("1.234.567,5");
    expect(formatNumber(0.123456, "es", { maximumFractionDigits: 3 })).toBe("0,123");
  });
});

describe("no negative zero", () => {
  it("writes a value that rounds to zero as zero, in both languages", () => {
    const two = { minimumFractionDigits: 2, maximumFractionDigits: 2 };
    expect(formatNumber(-0.001, "en", two)).toBe("0.00");
    expect(formatNumber(-0.004, "es", two)).toBe("0,00");
    expect(formatNumber(-0, "en")).toBe("0");
    expect(formatPercent(-0.00001, "en")).toBe("0.00%");
    expect(plain(formatPercent(-0.00004, "es", 1))).toBe("0,0 %");
    expect(plain(formatMoney(-0.001, "EUR", "es"))).toBe("0,00 €");
    expect(formatMoney(-0.004, "USD", "en")).toBe("$0.00");
  });

  it("keeps the sign of a value that does not round to zero", () => {
    const two = { minimumFractionDigits: 2, maximumFractionDigits: 2 };
    expect(formatNumber(-0.005, "en", two)).toBe("-0.01");
    expect(formatNumber(-1.25, "es", two)).toBe("-1,25");
    expect(formatPercent(-0.012, "en")).toBe("-1.20%");
    expect(formatMoney(-120, "USD", "en")).toBe("-$120.00");
    expect(formatNumber(-0.001, "en", { ...two, signDisplay: "exceptZero" })).toBe("0.00");
  });
});
