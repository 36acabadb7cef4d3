// @vitest-environment jsdom
// The summary's header names the objective the q3 answer optimised (docs/portfolios.md,
// "Propose"): a "Balanced" proposal is never said to be weighted for the highest expected return,
// and a proposal that fell back to the lowest risk says why; an answer ranked by betas or expected
// returns names the market they were measured against — in both languages.
import { I18nProvider } from "@lingui/react";
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { activateLocale, i18n } from "../../src/app/i18n.ts";
import type { Locale } from "../../src/contract/common.ts";
import type { Ordering } from "../../src/contract/portfolio-rules.ts";
import type { ProposeResponse } from "../../src/contract/portfolios.ts";
import { ProposalHeader } from "../../src/features/portfolios/summary-screen.tsx";

afterEach(cleanup);

const proposal = (method: ProposeResponse["method"], within: boolean | null): ProposeResponse => ({
  currency: "EUR",
  assets: [{ symbol: "XLP", name: "Staples", investedAmount: 50_000, percentage: 100 }],
  method,
  var95Amount: 1000,
  cvar95Amount: 1200,
  withinMaxToLose: within,
  minimumDesiredRiskAmount: 550,
  simulated: false,
});

async function show(p: ProposeResponse, ordering: Ordering, locale: Locale) {
  await activateLocale(locale);
  render(
    <I18nProvider i18n={i18n}>
      <ProposalHeader proposal={p} ordering={ordering} total="€50,000.00" />
    </I18nProvider>,
  );
  return screen.getByTestId("proposal-method").parentElement!.textContent!;
}

describe("the proposal's header", () => {
  it("names balanced for a balanced proposal, with its diversification rule", async () => {
    const text = await show(proposal("balanced", true), "balanced", "en");
    expect(text).toMatch(/^Balanced: weighted by the optimiser for the lowest risk/);
    expect(text).toContain("no sector more than 40%");
    expect(text).not.toContain("highest expected return");
    expect(text).toContain("The loss at 95% stays within what you said you could bear.");
    cleanup();
    const es = await show(proposal("balanced", true), "balanced", "es");
    expect(es).toMatch(/^Equilibrada: ponderada por el optimizador para el menor riesgo/);
    expect(es).toContain("ningún sector más del 40 %");
  });

  it.each([
    ["lowest-beta", "marketRisk", "Lowest market risk:", "Menor riesgo de mercado:"],
    [
      "highest-return",
      "expectedReturn",
      "Highest expected return:",
      "Mayor rentabilidad esperada:",
    ],
    ["best-risk-return", "riskReturn", "Best risk-return:", "Mejor rentabilidad-riesgo:"],
    ["minimum-risk", "minimization", "Weighted by the optimiser for the lowest risk.", "Ponderada"],
  ] as const)("names %s for the answer %s", async (method, ordering, en, es) => {
    expect(await show(proposal(method, null), ordering, "en")).toMatch(new RegExp(`^${en}`));
    cleanup();
    expect(await show(proposal(method, null), ordering, "es")).toMatch(new RegExp(`^${es}`));
  });

  it("says why the lowest risk replaced the answer's objective", async () => {
    const text = await show(proposal("minimum-risk", true), "expectedReturn", "en");
    expect(text).toContain(
      "Weighted for your priority, these assets would lose more at 95% than you can bear: the optimiser chose the lowest risk instead.",
    );
    cleanup();
    const none = await show(proposal("minimum-risk", false), "expectedReturn", "en");
    expect(none).not.toContain("instead");
    expect(none).toContain("No mix of these assets keeps the loss at 95%");
  });

  it("names the index the betas and expected returns were measured against, or the fallback", async () => {
    const at = (market: string | null | undefined): ProposeResponse => ({
      ...proposal("lowest-beta", null),
      ...(market !== undefined ? { market } : {}),
    });
    expect(await show(at("STOXX50E_INDEX"), "marketRisk", "en")).toContain(
      "Betas and expected returns measured against the EURO STOXX 50, as in the full analysis.",
    );
    cleanup();
    expect(await show(at("STOXX50E_INDEX+GDAXI_INDEX"), "expectedReturn", "es")).toContain(
      "Betas y rentabilidades esperadas medidas frente al EURO STOXX 50, como en el análisis completo.",
    );
    cleanup();
    expect(await show(at("GSPC_INDEX"), "riskReturn", "en")).toContain("against the S&P 500");
    cleanup();
    expect(await show(at(null), "marketRisk", "en")).toContain(
      "measured against the equally weighted average of the assets on offer: the market has no index for this currency.",
    );
    cleanup();
    expect(await show(at(null), "marketRisk", "es")).toContain(
      "frente a la media equiponderada de los activos ofrecidos: el mercado no tiene índice para esta divisa.",
    );
    cleanup();
    // Balanced and minimisation rank by volatility and risk; a lazy portfolio ranks nothing.
    expect(await show(at("STOXX50E_INDEX"), "balanced", "en")).not.toContain("Betas");
    cleanup();
    expect(await show(at(undefined), "marketRisk", "en")).not.toContain("Betas");
  });
});
