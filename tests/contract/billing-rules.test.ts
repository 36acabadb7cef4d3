// The billing rules shared by the subscription machine and the server: plan comparison (the
// specification's upgrade / downgrade / current / invalid), plan ids by currency, periods, VAT and
// the proration formula of docs/billing.md, checked against figures worked by hand.
import { describe, expect, it } from "vitest";
import {
  addPeriod,
  annualSaving,
  changeInvoiceLines,
  comparePlans,
  currencyOfRegion,
  daysBetween,
  invoiceInfoComplete,
  planIdFor,
  planPrice,
  quotePlan,
  vatOf,
} from "../../src/contract/billing.ts";

const at = (iso: string) => new Date(iso);

describe("comparePlans", () => {
  it.each([
    ["simAssets", "free", null, "standard", "monthly", "upgrade"],
    ["simAssets", "standard", "monthly", "advanced", "monthly", "upgrade"],
    ["simAssets", "standard", "monthly", "standard", "annual", "upgrade"],
    ["simAssets", "standard", "annual", "standard", "monthly", "downgrade"],
    ["simAssets", "advanced", "monthly", "standard", "annual", "downgrade"],
    ["simAssets", "advanced", "annual", "advanced", "annual", "current"],
    ["simIndices", "free", null, "standard", "monthly", "invalid"],
    ["simIndices", "free", null, "advanced", "annual", "upgrade"],
    ["simMonk", "standard", "monthly", "free", null, "invalid"],
  ] as const)("%s %s/%s -> %s/%s is %s", (product, tier, period, toTier, toPeriod, expected) => {
    expect(comparePlans(product, { tier, period }, { tier: toTier, period: toPeriod })).toBe(
      expected,
    );
  });
});

describe("plans", () => {
  it("maps currencies to the specification's plan ids and regions to currencies", () => {
    expect([planIdFor("simAssets", "EUR"), planIdFor("simAssets", "USD")]).toEqual([5, 6]);
    expect([planIdFor("simMonk", "EUR"), planIdFor("simMonk", "USD")]).toEqual([5, 6]);
    expect([planIdFor("simIndices", "EUR"), planIdFor("simIndices", "USD")]).toEqual([7, 8]);
    expect(currencyOfRegion("usa")).toBe("USD");
    expect(currencyOfRegion("eu")).toBe("EUR");
  });

  it("prices PRODUCT.md's plans and the annual saving", () => {
    expect(planPrice("simAssets", "standard", "monthly")).toBe(990);
    expect(planPrice("simMonk", "advanced", "annual")).toBe(9900);
    expect(planPrice("simIndices", "standard", "monthly")).toBeNull();
    expect(annualSaving("simAssets", "standard")).toBe(990 * 12 - 9900);
  });

  it("splits the VAT out of a price that includes it (21%)", () => {
    // 9.90 / 1.21 = 8.1818... -> base 8.18, VAT 1.72.
    expect(vatOf(990)).toBe(172);
    expect(vatOf(19900)).toBe(19900 - 16446);
    expect(vatOf(0)).toBe(0);
  });

  it("asks for a name and a country before invoicing", () => {
    expect(invoiceInfoComplete({ name: "Ada", country: "ES" })).toBe(true);
    expect(invoiceInfoComplete({ name: " ", country: "ES" })).toBe(false);
    expect(invoiceInfoComplete({ name: "Ada", country: "" })).toBe(false);
  });
});

describe("addPeriod", () => {
  it("adds a month or a year, ending on the last day of a shorter month", () => {
    expect(addPeriod(at("2026-01-31T09:00:00Z"), "monthly").toISOString()).toBe(
      "2026-02-28T09:00:00.000Z",
    );
    expect(addPeriod(at("2028-02-29T00:00:00Z"), "annual").toISOString()).toBe(
      "2029-02-28T00:00:00.000Z",
    );
    expect(addPeriod(at("2026-11-24T10:00:00Z"), "monthly").toISOString()).toBe(
      "2026-12-24T10:00:00.000Z",
    );
    expect(daysBetween("2026-11-24", "2026-12-24")).toBe(30);
  });
});

describe("quotePlan (docs/billing.md's worked example)", () => {
  const standardMonthly = {
    tier: "standard" as const,
    period: "monthly" as const,
    priceCents: 990,
    periodStart: at("2026-11-24T10:00:00Z"),
    periodEnd: at("2026-12-24T10:00:00Z"),
  };

  it("charges a purchase in full, for a period from now", () => {
    const q = quotePlan(
      "simAssets",
      null,
      { tier: "standard", period: "monthly" },
      at("2026-11-24T10:00:00Z"),
    );
    expect(q).toMatchObject({
      change: "upgrade",
      appliesAt: "now",
      chargeNowCents: 990,
      creditCents: 0,
    });
    expect(q.periodEnd.toISOString()).toBe("2026-12-24T10:00:00.000Z");
  });

  it("standard monthly to advanced annual 10 days in: 199.00 - round(9.90 x 20/30) = 192.40", () => {
    const q = quotePlan(
      "simAssets",
      standardMonthly,
      { tier: "advanced", period: "annual" },
      at("2026-12-04T10:00:00Z"),
    );
    expect(q).toMatchObject({
      change: "upgrade",
      remainingSeconds: 20 * 86_400,
      periodSeconds: 30 * 86_400,
      creditCents: 660,
      newPlanCents: 19900,
      chargeNowCents: 19240,
      nextChargeCents: 19900,
    });
    expect(q.periodEnd.toISOString()).toBe("2027-12-04T10:00:00.000Z");
  });

  it("standard to advanced monthly keeps the period end: round(19.90 x 20/30) - round(9.90 x 20/30) = 6.67", () => {
    const q = quotePlan(
      "simAssets",
      standardMonthly,
      { tier: "advanced", period: "monthly" },
      at("2026-12-04T10:00:00Z"),
    );
    expect(q).toMatchObject({ creditCents: 660, newPlanCents: 1327, chargeNowCents: 667 });
    expect(q.periodEnd).toEqual(standardMonthly.periodEnd);
  });

  it("schedules a downgrade for the period end with nothing to pay now", () => {
    const advancedAnnual = {
      ...standardMonthly,
      tier: "advanced" as const,
      period: "annual" as const,
      priceCents: 19900,
      periodEnd: at("2027-11-24T10:00:00Z"),
    };
    const q = quotePlan(
      "simAssets",
      advancedAnnual,
      { tier: "standard", period: "monthly" },
      at("2026-12-04T15:00:00Z"),
    );
    expect(q).toMatchObject({
      change: "downgrade",
      appliesAt: "periodEnd",
      chargeNowCents: 0,
      nextChargeCents: 990,
    });
    expect(q.nextChargeDate).toEqual(advancedAnnual.periodEnd);
  });

  it("says current for the plan held and invalid for a tier the product lacks", () => {
    expect(
      quotePlan(
        "simAssets",
        standardMonthly,
        { tier: "standard", period: "monthly" },
        at("2026-12-01T00:00:00Z"),
      ).change,
    ).toBe("current");
    expect(
      quotePlan(
        "simIndices",
        null,
        { tier: "standard", period: "monthly" },
        at("2026-12-01T00:00:00Z"),
      ).change,
    ).toBe("invalid");
  });

  it("treats a plan past its end as none", () => {
    const q = quotePlan(
      "simAssets",
      standardMonthly,
      { tier: "standard", period: "monthly" },
      at("2027-01-01T00:00:00Z"),
    );
    expect(q).toMatchObject({ change: "upgrade", chargeNowCents: 990 });
  });
});

describe("PRODUCT.md Money: elapsed time, the split change, never a negative charge", () => {
  const standardAnnual = {
    tier: "standard" as const,
    period: "annual" as const,
    priceCents: 9900,
    periodStart: at("2026-01-10T12:00:00Z"),
    periodEnd: at("2027-01-10T12:00:00Z"),
  };

  it("prorates by seconds: a quote at 23:59 and a payment at 00:00 differ by a minute's worth, not a day's", () => {
    const monthly = {
      tier: "standard" as const,
      period: "monthly" as const,
      priceCents: 490,
      periodStart: at("2026-11-10T12:00:00Z"),
      periodEnd: at("2026-12-10T12:00:00Z"),
    };
    const target = { tier: "advanced" as const, period: "monthly" as const };
    const before = quotePlan("simMonk", monthly, target, at("2026-11-24T23:59:00Z"));
    const after = quotePlan("simMonk", monthly, target, at("2026-11-25T00:00:00Z"));
    // 15 d 12 h 1 min of 30 days left: round(990 x r) - round(490 x r) = 512 - 253 = 259.
    expect(before).toMatchObject({ newPlanCents: 512, creditCents: 253, chargeNowCents: 259 });
    expect(Math.abs(after.chargeNowCents - before.chargeNowCents)).toBeLessThanOrEqual(1);
  });

  it("splits standard annual to advanced monthly: advanced now on the current year, monthly at its end", () => {
    // Half the year left (182.5 days of 365): credit round(99.00 / 2) = 49.50, new round(199.00 / 2) = 99.50.
    const now = at("2026-07-12T00:00:00Z");
    const q = quotePlan("simAssets", standardAnnual, { tier: "advanced", period: "monthly" }, now);
    expect(q).toMatchObject({
      change: "upgrade",
      appliesAt: "now",
      nowPlan: { tier: "advanced", period: "annual" },
      creditCents: 4950,
      newPlanCents: 9950,
      chargeNowCents: 5000,
      balanceAddedCents: 0,
      nextChargeCents: 1990,
    });
    expect(q.periodEnd).toEqual(standardAnnual.periodEnd);
    expect(q.then).toEqual({ tier: "advanced", period: "monthly", at: standardAnnual.periodEnd });
    expect(q.nextChargeDate).toEqual(standardAnnual.periodEnd);
  });

  it("uses the account balance before the card, and never charges below zero", () => {
    const q = quotePlan(
      "simAssets",
      null,
      { tier: "standard", period: "monthly" },
      at("2026-11-24T10:00:00Z"),
      400,
    );
    expect(q).toMatchObject({ chargeNowCents: 590, balanceUsedCents: 400, newPlanCents: 990 });
    const covered = quotePlan(
      "simAssets",
      null,
      { tier: "standard", period: "monthly" },
      at("2026-11-24T10:00:00Z"),
      5000,
    );
    expect(covered).toMatchObject({ chargeNowCents: 0, balanceUsedCents: 990 });
  });

  it("writes the invoice of a credit larger than the new part with a zero total", () => {
    const from = at("2026-11-24T10:00:00Z");
    const to = at("2026-12-24T10:00:00Z");
    const lines = changeInvoiceLines({
      product: "simAssets",
      plan: { tier: "advanced", period: "monthly", from, to, cents: 1990 },
      credit: { tier: "standard", period: "annual", from, to, cents: 9900 },
      balanceUsedCents: 0,
      balanceAddedCents: 7910,
    });
    expect(lines.map((l) => [l.kind, l.amountCents])).toEqual([
      ["plan", 1990],
      ["credit", -9900],
      ["balanceAdded", 7910],
    ]);
    expect(lines.reduce((a, l) => a + l.amountCents, 0)).toBe(0);
  });
});
