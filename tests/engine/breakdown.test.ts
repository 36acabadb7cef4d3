// Breakdown by asset, exchange, asset class, currency, sector and region.
import { describe, expect, it } from "vitest";
import { breakdown, OTHER } from "../../src/engine/breakdown.ts";

describe("breakdown", () => {
  const assets = [
    {
      symbol: "SAN.MC",
      exchange: "BME",
      assetClass: "equity",
      currency: "EUR",
      sector: "Financials",
      region: "eu",
    },
    {
      symbol: "AAPL",
      exchange: "NASDAQ",
      assetClass: "equity",
      currency: "USD",
      sector: "Information Technology",
      region: "usa",
    },
    {
      symbol: "BBVA.MC",
      exchange: "BME",
      assetClass: "equity",
      currency: "EUR",
      sector: "Financials",
      region: "eu",
    },
    {
      symbol: "TLT",
      exchange: "",
      assetClass: "fixed_income",
      currency: "USD",
      sector: "Government long",
      region: "usa",
    },
  ];
  const amounts = Float64Array.of(3000, 4000, 2000, 1000);
  it("sums amounts per group, weights sum to 1, largest first", () => {
    const b = breakdown(assets, amounts);
    expect(b.exchange).toEqual([
      { key: "BME", amount: 5000, weight: 0.5, assets: 2 },
      { key: "NASDAQ", amount: 4000, weight: 0.4, assets: 1 },
      { key: OTHER, amount: 1000, weight: 0.1, assets: 1 },
    ]);
    expect(b.currency.map((e) => [e.key, e.weight])).toEqual([
      ["EUR", 0.5],
      ["USD", 0.5],
    ]);
    expect(b.asset[0]!.key).toBe("AAPL");
    for (const d of Object.values(b))
      expect(d.reduce((s, e) => s + e.weight, 0)).toBeCloseTo(1, 14);
  });
  it("refuses mismatched sizes and zero totals", () => {
    expect(() => breakdown(assets, Float64Array.of(1))).toThrow(
      expect.objectContaining({ code: "DIMENSION_MISMATCH" }),
    );
    expect(() => breakdown(assets, new Float64Array(4))).toThrow(
      expect.objectContaining({ code: "INVALID_WEIGHTS" }),
    );
  });
});
