// @vitest-environment jsdom
// Issue 24: the simulator prints the assumptions its figures follow from above the chart (mode,
// annual return, volatility, the history they rest on, how they were obtained) with the cautions,
// in both languages, names series by their names, and shows no random seed.
import { I18nProvider } from "@lingui/react";
import { cleanup, render, screen } from "@testing-library/react";
import { MemoryRouter } from "react-router-dom";
import { afterEach, describe, expect, it } from "vitest";
import { demoSimulation } from "../../machines/investment-simulator.machine.ts";
import { activateLocale, i18n } from "../../src/app/i18n.ts";
import { ServicesProvider } from "../../src/app/services.tsx";
import type { SimulateResponse } from "../../src/contract/analytics.ts";
import type { Locale } from "../../src/contract/common.ts";
import { SimulationResult } from "../../src/features/simulator/simulator-result.tsx";
import { testServices } from "../support/render-app.tsx";

afterEach(cleanup);

async function show(result: SimulateResponse, locale: Locale) {
  await activateLocale(locale);
  return render(
    <I18nProvider i18n={i18n}>
      <ServicesProvider services={testServices("ht")}>
        <MemoryRouter>
          <SimulationResult result={result} stale={false} locale={locale} />
        </MemoryRouter>
      </ServicesProvider>
    </I18nProvider>,
  );
}

const figure = (name: string) =>
  document.querySelector(`[data-figure="${name}"]`)?.textContent ?? null;

describe("the printed assumptions", () => {
  it("equilibrium: the CAPM return, the volatility, the history and the index by its name", async () => {
    await show(demoSimulation, "en");
    expect(screen.getByRole("heading", { name: "Assumptions of these figures" })).toBeTruthy();
    expect(figure("mode")).toBe("Equilibrium (CAPM)");
    expect(figure("annual-return")).toBe("7.1%");
    expect(figure("annual-volatility")).toBe("18.0%");
    expect(figure("history")).toContain("8 years");
    const source = figure("assumptions-source")!;
    expect(source).toContain("risk-free rate 2.0% + beta 1.02 × equity premium 5.0%");
    expect(source).toContain("EURO STOXX 50");
    expect(source).not.toContain("STOXX50E_INDEX");
    expect(figure("method")).toContain("Equilibrium (CAPM) assumptions");
    expect(document.body.textContent).not.toMatch(/seed/i);
    expect(document.querySelectorAll("[data-caution]")).toHaveLength(0);
  });

  it("historical, in Spanish: the bootstrap, and both cautions", async () => {
    const result: SimulateResponse = {
      ...demoSimulation,
      method: "block-bootstrap",
      months: 12,
      assumptions: {
        ...demoSimulation.assumptions,
        mode: "historical",
        annualReturn: 0.32,
        annualVolatility: 0.126,
        capm: null,
        blocks: 166,
        cautions: ["horizon-beyond-history", "return-above-bound"],
      },
    };
    await show(result, "es");
    expect(figure("mode")).toBe("Histórica (bootstrap por bloques)");
    expect(figure("annual-return")).toBe("32,0\u00a0%");
    expect(figure("method")).toContain("166 bloques");
    const cautions = [...document.querySelectorAll("[data-caution]")].map((c) => c.textContent);
    expect(cautions).toHaveLength(2);
    expect(cautions[0]).toContain("Atención: el plazo (1 años)");
    expect(cautions[1]).toMatch(/supera el 12\s%/);
    expect(document.body.textContent).not.toMatch(/semilla/i);
  });

  it("my own: no history, what the person typed", async () => {
    await show(
      {
        ...demoSimulation,
        assumptions: {
          ...demoSimulation.assumptions,
          mode: "own",
          annualReturn: 0.05,
          annualVolatility: 0.12,
          history: null,
          capm: null,
        },
      },
      "en",
    );
    expect(figure("mode")).toBe("My own");
    expect(figure("history")).toBe("None: typed by you");
    expect(figure("annual-return")).toBe("5.0%");
  });
});
