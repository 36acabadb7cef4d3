// Every limit message of the optimisation names where the limit comes from (issue 24): the
// portfolio's own "how many assets" answer of q3, or the plan — in both languages — and o3 says
// why it cannot return the number asked for.
import { afterEach, describe, expect, it } from "vitest";
import { activateLocale, i18n } from "../../src/app/i18n.ts";
import { optimisationViolations } from "../../src/contract/optimisation-rules.ts";
import { permissionsFor } from "../../src/contract/permissions.ts";
import { infeasibleText, violationText } from "../../src/features/optimise/texts.ts";

afterEach(() => activateLocale("en"));

const request = {
  currency: "USD" as const,
  assets: [{ symbol: "AAPL", investedAmount: 10_000 }],
  maxToLose95: 5000,
  level: 3 as const,
  desiredAssetsAmount: 12,
};

describe("limit messages", () => {
  it("name the q3 answer when the portfolio's level is the limit (an advanced plan allows 30)", async () => {
    const [v] = optimisationViolations(
      { ...request, maxAssetsLevel: 2 },
      permissionsFor("simAssets", "advanced"),
      30,
    );
    await activateLocale("en");
    const en = violationText(v!, i18n, "en", "USD");
    expect(en).toBe(
      "You asked for 12 assets; this portfolio was created for up to 10 (your answer to “how many assets” in question 3), whatever your plan allows.",
    );
    expect(en).not.toContain("your plan allows 10");
    await activateLocale("es");
    expect(violationText(v!, i18n, "es", "USD")).toBe(
      "Pediste 12 activos; esta cartera se creó para un máximo de 10 (tu respuesta a «cuántos activos» en la pregunta 3), permita lo que permita tu plan.",
    );
  });

  it("name the plan when the plan is the limit", async () => {
    const [v] = optimisationViolations(request, permissionsFor("simAssets", "standard"), 30);
    await activateLocale("en");
    expect(v!.code).toBe("DESIRED_AMOUNT_ABOVE_LIMIT");
    expect(violationText(v!, i18n, "en", "USD")).toBe(
      "You asked for 12 assets; your plan allows 10.",
    );
  });

  it("o3 says how many assets can be considered when fewer than asked", async () => {
    await activateLocale("en");
    const text = infeasibleText(
      { code: "CARDINALITY_INFEASIBLE", detail: { maxAssets: 8, availableAssets: 7 } },
      i18n,
      "en",
      "USD",
      10_000,
    );
    expect(text).toContain("You asked for 8, but only 7 assets can be considered");
    await activateLocale("es");
    expect(
      infeasibleText(
        { code: "CARDINALITY_INFEASIBLE", detail: { maxAssets: 8, availableAssets: 7 } },
        i18n,
        "es",
        "USD",
        10_000,
      ),
    ).toContain("Pediste 8, pero solo se pueden considerar 7 activos");
  });
});
