// The banana challenge's creation screen (issue 13), in both languages and both editions: the
// rules, a region with capacity, the stock picker (search by name, whole shares, the total live
// against the budget), the save that draws the monkey, and the link to the portfolio's page. The
// account is all-advanced@demo.test (simMonk advanced), so it does not compete for
// banana@demo.test's one place per region with banana-account.spec.ts; what it creates is deleted.
// A plan without simMonk is kept out by the route's guard.
import type { Page } from "@playwright/test";
import { dismissCookieBannerWhenShown, signInAs } from "./accounts-support.ts";
import { expect, saveShot, test, type Locale } from "./fixtures.ts";

const path = { en: "/en/banana-challenge", es: "/es/banana-challenge" } as const;

const t = {
  title: { en: "Banana challenge", es: "Banana challenge" },
  rules: { en: "The rules", es: "Las reglas" },
  region: {
    eu: { en: "Europe (EUR)", es: "Europa (EUR)" },
    usa: { en: "USA (USD)", es: "EE. UU. (USD)" },
  },
  search: { en: "Name or symbol", es: "Nombre o símbolo" },
  add: { en: "Add", es: "Añadir" },
  sharesOf: { en: "Shares of", es: "Acciones de" },
  below: { en: "below the budget", es: "por debajo del presupuesto" },
  within: { en: "Within the budget.", es: "Dentro del presupuesto." },
  name: { en: "Name of the portfolio", es: "Nombre de la cartera" },
  save: { en: "Save and draw my monkey", es: "Guardar y sortear mi mono" },
  saved: { en: "Your monkey has drawn its portfolio", es: "Tu mono ya ha elegido su cartera" },
  monkeyHoldings: { en: "The monkey's holdings", es: "Las posiciones del mono" },
  yourHoldings: { en: "Your holdings", es: "Tus posiciones" },
  open: { en: "Open the portfolio", es: "Abrir la cartera" },
  change: { en: "Change the stocks", es: "Cambiar las acciones" },
  saveChanges: { en: "Save the changes", es: "Guardar los cambios" },
  changed: {
    en: "Saved: your stocks changed at the day's closes.",
    es: "Guardado: tus acciones han cambiado a los cierres del día.",
  },
  portfolio: {
    en: "/en/my-account/banana-portfolios/portfolio-",
    es: "/es/mi-cuenta/carteras-banana/cartera-",
  },
} as const;

interface Stock {
  symbol: string;
  name: string;
  close: number;
}

/** Two stocks of the region and whole shares of each that cost between 9,900 and 10,000. */
function twoStocks(stocks: Stock[]): { stock: Stock; shares: number }[] {
  // Distinct names (the search finds one by its name); the second is the cheapest, so that whole
  // shares of it fill the budget to within one share (under 100).
  const usable = stocks
    .filter((s) => s.close < 2_000 && stocks.filter((o) => o.name === s.name).length === 1)
    .sort((x, y) => x.symbol.localeCompare(y.symbol));
  const b = [...usable].sort((x, y) => x.close - y.close)[0]!;
  const a = usable.find((s) => s.symbol !== b.symbol)!;
  // Under 50, so that one share more or less keeps the total within the budget (the edit below).
  expect(b.close).toBeLessThan(50);
  const sharesA = Math.floor(5_000 / a.close);
  const left = 10_000 - sharesA * a.close;
  const sharesB = Math.floor(left / b.close);
  const total = sharesA * a.close + sharesB * b.close;
  expect(total).toBeGreaterThanOrEqual(9_900);
  return [
    { stock: a, shares: sharesA },
    { stock: b, shares: sharesB },
  ];
}

/** The account's places left per region, and its portfolios' ids per region. */
async function placesOf(page: Page, token: string) {
  const r = await page.request.get("/api/banana/portfolios", {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(r.ok()).toBe(true);
  const list = (await r.json()) as {
    capacity: Record<"eu" | "usa", number>;
    portfolios: { id: number; region: "eu" | "usa" }[];
  };
  const ids = (region: "eu" | "usa") =>
    list.portfolios.filter((p) => p.region === region).map((p) => p.id);
  return { capacity: list.capacity, ids };
}

test.describe("the banana challenge", () => {
  for (const [locale, region] of [
    ["en", "eu"],
    ["es", "usa"],
  ] as const satisfies readonly (readonly [Locale, "eu" | "usa"])[]) {
    test(`picks stocks in whole shares within the budget and draws the monkey (${locale}, ${region})`, async ({
      page,
      edition,
    }) => {
      test.setTimeout(120_000);
      await page.setViewportSize({ width: 1280, height: 900 });
      await dismissCookieBannerWhenShown(page);
      const token = await signInAs(page, "all-advanced@demo.test");
      const auth = { Authorization: `Bearer ${token}` };
      const before = await placesOf(page, token);
      expect(before.capacity[region]).toBeGreaterThan(0);
      const universe = (await (
        await page.request.get(`/api/banana/universe?region=${region}`, { headers: auth })
      ).json()) as { stocks: Stock[] };
      const picks = twoStocks(universe.stocks);
      let createdId: number | null = null;

      try {
        await page.goto(path[locale]);
        await expect(page.getByRole("heading", { level: 1, name: t.title[locale] })).toBeVisible({
          timeout: 30_000,
        });
        await expect(page.getByRole("heading", { name: t.rules[locale] })).toBeVisible();
        await page.getByRole("button", { name: t.region[region][locale], exact: true }).click();
        const search = page.getByLabel(t.search[locale], { exact: true });
        await expect(search).toBeVisible({ timeout: 30_000 });
        await page
          .getByLabel(t.name[locale], { exact: true })
          .fill(`Monkey race ${edition} ${locale}`);

        const status = page.getByTestId("banana-budget-status");
        for (const [i, { stock, shares }] of picks.entries()) {
          await search.fill(stock.name);
          await page
            .getByRole("button", { name: `${t.add[locale]} ${stock.name}`, exact: true })
            .click();
          // One share to start with: far below the budget.
          if (i === 0) await expect(status).toContainText(t.below[locale]);
          const input = page.getByLabel(`${t.sharesOf[locale]} ${stock.name}`, { exact: true });
          await input.fill(String(shares));
          await input.press("Tab");
        }
        await expect(status).toHaveText(t.within[locale]);
        await expect(page.getByTestId("banana-count")).toContainText("2");
        await saveShot(page, `banana-create-${edition}-${locale}-1280`);
        await page.setViewportSize({ width: 390, height: 844 });
        await saveShot(page, `banana-create-${edition}-${locale}-390`);
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        expect(overflow).toBeLessThanOrEqual(0);
        await page.setViewportSize({ width: 1280, height: 900 });

        const created = page.waitForResponse(
          (r) =>
            new URL(r.url()).pathname === "/api/banana/portfolios" &&
            r.request().method() === "POST",
        );
        await page.getByRole("button", { name: t.save[locale] }).click();
        const response = await created;
        expect(response.status()).toBe(201);
        const banana = (await response.json()) as {
          id: number;
          holdings: { symbol: string; shares: number }[];
          monkey: { holdings: unknown[] };
        };
        createdId = banana.id;
        expect(banana.holdings.map((h) => [h.symbol, h.shares]).sort()).toEqual(
          picks.map((p) => [p.stock.symbol, p.shares]).sort(),
        );
        await expect(page.getByTestId("banana-saved")).toContainText(t.saved[locale]);
        await expect(
          page
            .getByRole("table", { name: t.monkeyHoldings[locale], exact: true })
            .locator("tbody tr"),
        ).toHaveCount(banana.monkey.holdings.length);
        // The save took one of the region's places: listed, and places plus portfolios unchanged
        // (route checks may add one of their own meanwhile, so not simply "one place fewer").
        const after = await placesOf(page, token);
        expect(after.ids(region)).toContain(banana.id);
        expect(after.capacity[region] + after.ids(region).length).toBe(
          before.capacity[region] + before.ids(region).length,
        );

        await page.getByRole("link", { name: t.open[locale] }).click();
        await expect(page).toHaveURL(`${t.portfolio[locale]}${banana.id}`);
        await expect(
          page.getByRole("heading", { level: 1, name: `Monkey race ${edition} ${locale}` }),
        ).toBeVisible();

        // Editing: inside the 10:00-22:00 UTC window (the server's clock), one share of the cheap
        // stock more or less; outside it the page says when it opens and offers no editor.
        const window = page.getByTestId("edit-window");
        const open = (await window.getAttribute("data-open")) === "true";
        const change = page.getByRole("button", { name: t.change[locale], exact: true });
        if (!open) {
          await expect(change).toHaveCount(0);
          return;
        }
        await change.click();
        const [a, b] = picks;
        const total = a!.shares * a!.stock.close + b!.shares * b!.stock.close;
        const next = total - b!.stock.close >= 9_900 ? b!.shares - 1 : b!.shares + 1;
        const shares = page.getByLabel(`${t.sharesOf[locale]} ${b!.stock.name}`, { exact: true });
        await shares.fill(String(next));
        await shares.press("Tab");
        await expect(page.getByTestId("banana-budget-status")).toHaveText(t.within[locale]);
        const edited = page.waitForResponse(
          (r) =>
            new URL(r.url()).pathname === `/api/banana/portfolios/${banana.id}` &&
            r.request().method() === "PUT",
        );
        await page.getByRole("button", { name: t.saveChanges[locale] }).click();
        expect((await edited).status()).toBe(200);
        await expect(page.getByTestId("banana-edit-saved")).toHaveText(t.changed[locale]);
        const holdings = page.getByRole("table", { name: t.yourHoldings[locale], exact: true });
        await expect(holdings.locator("tr", { hasText: b!.stock.symbol })).toContainText(
          new Intl.NumberFormat(locale === "es" ? "es-ES" : "en-US").format(next),
        );
      } finally {
        if (createdId !== null) {
          const removed = await page.request.delete(`/api/portfolios/${createdId}?stc=simMonk`, {
            headers: auth,
          });
          expect(removed.ok(), await removed.text()).toBe(true);
        }
      }
    });
  }

  test("keeps a plan without the banana challenge out", async ({ page }) => {
    await dismissCookieBannerWhenShown(page);
    await signInAs(page, "free@demo.test");
    await page.goto(path.en);
    await expect(page).not.toHaveURL(/\/banana-challenge$/, { timeout: 30_000 });
    await expect(page.getByRole("button", { name: t.save.en })).toHaveCount(0);
  });
});
