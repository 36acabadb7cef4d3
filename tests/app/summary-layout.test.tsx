// @vitest-environment jsdom
// The parts of the summary that load after the screen is drawn keep their place from the start, so
// that nothing under the pointer moves when their data arrives: the row to add an asset is drawn
// disabled while the universe loads, and the live-risk panel says it is measuring (also during
// its debounce) instead of being empty. Seen as a click on "See the full analysis" that landed
// on the live-risk panel, which had just grown under it.
import { I18nProvider } from "@lingui/react";
import { act, cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { activateLocale, i18n } from "../../src/app/i18n.ts";
import { ServicesProvider } from "../../src/app/services.tsx";
import type { Locale } from "../../src/contract/common.ts";
import { HoldingsEditor } from "../../src/features/portfolios/holdings-editor.tsx";
import { LiveRisk } from "../../src/features/portfolios/live-risk.tsx";
import { testServices } from "../support/render-app.tsx";

afterEach(cleanup);

const assets = [
  { id: "SAN.MC", name: "Banco Santander", investedAmount: 6000 },
  { id: "ITX.MC", name: "Inditex", investedAmount: 4000 },
];

async function show(ui: React.ReactNode, locale: Locale, fetchImpl?: typeof fetch) {
  await activateLocale(locale);
  return render(
    <I18nProvider i18n={i18n}>
      <ServicesProvider services={testServices("ht", fetchImpl)}>{ui}</ServicesProvider>
    </I18nProvider>,
  );
}

describe("the row to add an asset", () => {
  const editor = (candidates: { id: string; name: string }[] | null) => (
    <HoldingsEditor
      assets={assets}
      currency="EUR"
      locale="en"
      send={() => {}}
      candidates={candidates}
    />
  );

  it("is drawn disabled while the assets that may be added load", async () => {
    await show(editor(null), "en");
    const select = screen.getByLabelText("Add an asset");
    expect(select).toHaveProperty("disabled", true);
    expect(screen.getByLabelText("Amount")).toHaveProperty("disabled", true);
    expect(select.closest(".actions-row")?.getAttribute("aria-busy")).toBe("true");
  });

  it("is enabled once they have arrived, with those not held yet", async () => {
    await show(editor([...assets, { id: "BBVA.MC", name: "BBVA" }]), "en");
    const select = screen.getByLabelText("Add an asset") as HTMLSelectElement;
    expect(select.disabled).toBe(false);
    expect([...select.options].map((o) => o.value)).toEqual(["", "BBVA.MC"]);
  });

  it("is not drawn when there is nothing to add", async () => {
    await show(editor([]), "es");
    expect(screen.queryByLabelText("Añadir un activo")).toBeNull();
  });
});

describe("the live-risk panel before its first answer", () => {
  // A server that has not answered yet (the call stays pending).
  const pending: typeof fetch = () => new Promise<Response>(() => {});

  it("says it is measuring from the first render, in both languages", async () => {
    await show(<LiveRisk currency="EUR" assets={assets} locale="en" />, "en", pending);
    expect(screen.getByText("Measuring the risk…")).toBeTruthy();
    cleanup();
    await show(<LiveRisk currency="EUR" assets={assets} locale="es" />, "es", pending);
    await act(async () => {});
    expect(screen.getByText("Midiendo el riesgo…")).toBeTruthy();
  });

  it("keeps its line when there is nothing to measure", async () => {
    await show(<LiveRisk currency="EUR" assets={[]} locale="en" />, "en", pending);
    const panel = screen.getByRole("region", { name: "Risk of this portfolio" });
    expect(panel.querySelector(".muted")?.textContent).toBe("\u00a0");
  });
});
