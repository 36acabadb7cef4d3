// @vitest-environment jsdom
// Every money amount a person types is a money field (docs/design.md, "Money field"): the
// simulator's amounts show the language's format with exactly two decimals, read what the person
// types in that format, and the numbers (years, percentages) are in the language's format too.
import { cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { pathFor } from "../../src/app/paths.ts";
import { healthyResponse, memberFacts, renderApp, testServices } from "../support/render-app.tsx";

afterEach(cleanup);

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

/** An API with no saved portfolio: the simulator composes on the spot. */
const services = () =>
  testServices("ht", async (input) => {
    const url = new URL(String(input instanceof Request ? input.url : input));
    if (url.pathname === "/api/portfolios") return json({ portfolios: [], simulated: false });
    if (url.pathname === "/api/market/assets") return json({ assets: [], simulated: false });
    if (url.pathname === "/api/market/today")
      return json({ today: "2024-05-31", source: "imported", assets: 0 });
    return json(healthyResponse);
  });

const texts = {
  en: {
    go: "Continue",
    initial: "Initial amount (EUR)",
    monthly: "Monthly contribution (EUR)",
    goal: "Goal at the horizon (EUR, optional)",
    years: "Horizon (years)",
    asset: "Amount of asset 1",
    add: "Add an asset",
    shown: { initial: "10,000.00", monthly: "200.00", years: "20", asset: "1,000.00" },
    typed: "12500.5",
    typedShown: "12,500.50",
  },
  es: {
    go: "Continuar",
    initial: "Importe inicial (EUR)",
    monthly: "Aportación mensual (EUR)",
    goal: "Objetivo al final del plazo (EUR, opcional)",
    years: "Plazo (años)",
    asset: "Importe del activo 1",
    add: "Añadir un activo",
    shown: { initial: "10.000,00", monthly: "200,00", years: "20", asset: "1.000,00" },
    typed: "12500,5",
    typedShown: "12.500,50",
  },
} as const;

const box = (name: string) => screen.getByRole("textbox", { name }) as HTMLInputElement;

describe.each(["en", "es"] as const)("the simulator's amounts in %s", (locale) => {
  const x = texts[locale];

  it("are money fields with two decimals in the language's format", async () => {
    await renderApp(pathFor("investment-simulator", locale), {
      facts: memberFacts,
      services: services(),
    });
    fireEvent.click(await screen.findByRole("button", { name: x.go }));
    await screen.findByRole("textbox", { name: x.initial });
    expect(box(x.initial).value).toBe(x.shown.initial);
    expect(box(x.monthly).value).toBe(x.shown.monthly);
    expect(box(x.years).value).toBe(x.shown.years);
    expect(box(x.goal).value).toBe("");

    // Typed in the language's format, kept as typed while editing, two decimals once left.
    const goal = box(x.goal);
    goal.focus();
    fireEvent.change(goal, { target: { value: x.typed } });
    expect(goal.value).toBe(x.typed);
    fireEvent.blur(goal);
    expect(goal.value).toBe(x.typedShown);

    // An asset's amount too (the list starts empty; a new row holds 1,000).
    expect(screen.queryByRole("textbox", { name: x.asset })).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: x.add }));
    await waitFor(() => expect(box(x.asset).value).toBe(x.shown.asset));
    // No spin buttons for money.
    expect(screen.queryAllByRole("spinbutton")).toEqual([]);
  });
});
