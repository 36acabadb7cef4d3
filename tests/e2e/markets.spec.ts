// The markets page (issue "Markets and the investment simulator", docs/market-data.md "Markets
// page"), in both languages and both editions, as a guest: the widgets with the data's date and
// "simulated prices", a chart's range changed and its crosshair moved with the keyboard, the
// gainers and losers of an exchange, and an asset opened. Every figure on screen is compared with
// the API's answer, formatted here with Intl in the page's locale. At 390 px nothing overflows,
// and the browser reports no error (CSP included).
import type { APIRequestContext, Page } from "@playwright/test";
import type {
  AssetView,
  MarketMovers,
  MarketOverview,
  MarketQuote,
} from "../../src/contract/market.ts";
import { expect, marketsPath, saveShot, test, texts, type Locale } from "./fixtures.ts";

const intl: Record<Locale, string> = { en: "en-US", es: "es-ES" };

const words = {
  simulated: { en: "Simulated prices", es: "Precios simulados" },
  pricesAsOf: { en: "Prices as of", es: "Precios del" },
  month: { en: "Month", es: "Mes" },
  exchange: { en: "Exchange", es: "Bolsa" },
  threeMonths: { en: "3M, 3 months", es: "3 M, 3 meses" },
  allMarkets: { en: "← All markets", es: "← Todos los mercados" },
  gainers: { en: "Gainers", es: "Suben" },
  coverage: {
    en: "Shown: the instruments in our price data.",
    es: "Se muestran los instrumentos de nuestros datos de precios.",
  },
} as const;

const num = (locale: Locale, value: number, options: Intl.NumberFormatOptions) =>
  new Intl.NumberFormat(intl[locale], options).format(value);

/** The page's rules (src/features/markets/market-format.ts), written out again. */
function close(locale: Locale, value: number, q: Pick<MarketQuote, "kind" | "currency">) {
  const two = { minimumFractionDigits: 2, maximumFractionDigits: 2 };
  if (q.kind === "index") return num(locale, value, two);
  if (q.kind === "fx")
    return num(locale, value, { minimumFractionDigits: 4, maximumFractionDigits: 4 });
  if (q.kind === "rate") return num(locale, value / 100, { style: "percent", ...two });
  return num(locale, value, { style: "currency", currency: q.currency, ...two });
}

function change(locale: Locale, value: number, unit: MarketQuote["changeUnit"]) {
  const opts = {
    signDisplay: "exceptZero",
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  } as const;
  return unit === "points"
    ? `${num(locale, value, opts)} ${locale === "en" ? "pp" : "p. p."}`
    : num(locale, value, { style: "percent", ...opts });
}

const longDate = (locale: Locale, iso: string) =>
  new Intl.DateTimeFormat(intl[locale], { dateStyle: "long", timeZone: "UTC" }).format(
    new Date(iso),
  );

async function api<T>(request: APIRequestContext, path: string): Promise<T> {
  const res = await request.get(path);
  expect(res.status()).toBe(200);
  return (await res.json()) as T;
}

function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  page.on("pageerror", (e) => errors.push(e.message));
  return errors;
}

for (const locale of ["en", "es"] as const) {
  test(`a guest follows the markets, changes a chart's range and opens an asset (${locale})`, async ({
    page,
    request,
  }) => {
    test.slow(); // five charts, two languages, two editions, on a shared machine
    const errors = watchErrors(page);
    const overview = await api<MarketOverview>(request, "/api/market/overview");
    const movers = await api<MarketMovers>(request, "/api/market/movers");
    expect(overview.simulated).toBe(true);

    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(marketsPath[locale]);
    // The consent banner first, so that it covers nothing (the machine may be busy: generous wait).
    await page
      .getByRole("dialog", { name: texts.weUseCookies[locale] })
      .getByRole("button", { name: texts.rejectAll[locale] })
      .click({ timeout: 20_000 });

    // The data's date and "simulated prices" on every block.
    const stamps = page.getByTestId("data-stamp");
    await expect(stamps.first()).toContainText(
      `${words.pricesAsOf[locale]} ${longDate(locale, overview.today!)}`,
    );
    await expect(stamps.first()).toContainText(words.simulated[locale]);
    // A widget the data cannot fill is not drawn (docs/decisions.md, "What the data lacks is not
    // news"); the others each carry a stamp.
    const shown = overview.widgets.filter((w) => w.items.length > 0);
    await expect(stamps).toHaveCount(shown.length + 2);
    for (const widget of overview.widgets.filter((w) => w.items.length === 0))
      await expect(page.locator(`[data-widget="${widget.id}"]`)).toHaveCount(0);

    // Every widget's last close and changes, as the API says.
    for (const widget of shown) {
      const section = page.locator(`[data-widget="${widget.id}"]`);
      await expect(section).toBeVisible();
      for (const { quote } of widget.items) {
        const card = section.locator(`li[data-symbol="${quote.symbol}"]`);
        await expect(card.getByTestId("quote-last")).toHaveText(close(locale, quote.last!, quote));
        for (const p of ["day", "month", "year"] as const) {
          const v = quote.changes[p];
          await expect(card.locator(`[data-period="${p}"] dd`)).toHaveText(
            v === null ? "—" : change(locale, v, quote.changeUnit),
          );
        }
      }
      if (widget.missing.length > 0)
        await expect(section).toHaveAttribute("data-missing", widget.missing.join(" "));
    }
    // What the data lacks is not listed: one neutral footnote says what is shown.
    if (overview.widgets.some((w) => w.missing.length > 0))
      await expect(page.getByTestId("widgets-coverage")).toHaveText(words.coverage[locale]);

    // The first index's chart: the reading starts at the last close; 3 months from the API; the
    // keyboard walks the closes.
    const indices = overview.widgets.find((w) => w.id === "indices")!;
    const first = indices.items[0]!;
    const section = page.locator('[data-widget="indices"]');
    const readout = section.getByTestId("chart-readout");
    await expect(readout).toHaveText(
      `${longDate(locale, first.quote.lastDate!)} ${close(locale, first.quote.last!, first.quote)}`,
    );
    await expect(section.locator(".price-canvas canvas").first()).toBeVisible();
    const threeMonths = await api<AssetView>(
      request,
      `/api/market/assets/${first.quote.symbol}?range=3m`,
    );
    const [answer] = await Promise.all([
      page.waitForResponse((r) => r.url().includes(`/api/market/assets/${first.quote.symbol}?`)),
      section.getByRole("button", { name: words.threeMonths[locale] }).click(),
    ]);
    expect(new URL(answer.url()).searchParams.get("range")).toBe("3m");
    await expect(section.locator(".price-chart")).toHaveAttribute("data-range", "3m");
    const canvas = section.locator(".price-canvas");
    await expect(canvas.locator("canvas").first()).toBeVisible();
    await canvas.focus();
    await page.keyboard.press("Home");
    const h = threeMonths.history;
    await expect(readout).toHaveText(
      `${longDate(locale, h.dates[0]!)} ${close(locale, h.closes[0]!, first.quote)}`,
    );
    await page.keyboard.press("ArrowRight");
    await expect(readout).toHaveText(
      `${longDate(locale, h.dates[1]!)} ${close(locale, h.closes[1]!, first.quote)}`,
    );
    // The table for screen readers ends with the last close.
    await expect(
      section.locator(".visually-hidden table tbody tr").last().locator("td"),
    ).toHaveText(close(locale, h.closes.at(-1)!, first.quote));
    await saveShot(page, `markets-${locale}`);

    // Gainers and losers of the month on the largest exchange.
    const exchange = movers.exchanges[0]!;
    const moversBlock = page.locator(".market-movers");
    await moversBlock.getByLabel(words.exchange[locale]).selectOption(exchange.exchange);
    await moversBlock.getByRole("button", { name: words.month[locale], exact: true }).click();
    await expect(moversBlock).toHaveAttribute("data-period", "month");
    const gainers = moversBlock.getByTestId("gainers").locator("li");
    await expect(gainers).toHaveCount(exchange.month.gainers.length);
    for (const [k, m] of exchange.month.gainers.entries()) {
      await expect(gainers.nth(k)).toHaveAttribute("data-symbol", m.symbol);
      await expect(gainers.nth(k).locator(".change")).toHaveText(
        change(locale, m.change, "relative"),
      );
    }
    const losers = moversBlock.getByTestId("losers").locator("li");
    await expect(losers).toHaveCount(exchange.month.losers.length);

    // Nothing wider than the phone.
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);

    // Open the best gainer: its view with the API's figures.
    const top = exchange.month.gainers[0]!;
    const view = await api<AssetView>(request, `/api/market/assets/${top.symbol}?range=1y`);
    await gainers.first().getByRole("link").click();
    await expect(page).toHaveURL(new RegExp(`\\?asset=${top.symbol.replace(".", "\\.")}$`));
    const article = page.locator(`article.asset-view[data-symbol="${top.symbol}"]`);
    await expect(article.getByRole("heading", { level: 2 })).toContainText(view.asset.name);
    await expect(article.getByTestId("data-stamp")).toContainText(words.simulated[locale]);
    await expect(article.getByTestId("asset-currency")).toHaveText(view.asset.currency);
    await expect(article.getByTestId("asset-exchange")).toHaveText(view.asset.exchange!);
    await expect(article.getByTestId("quote-last")).toHaveText(
      close(locale, view.quote.last!, view.quote),
    );
    for (const p of ["day", "month", "ytd", "year"] as const)
      await expect(article.locator(`.change-list [data-period="${p}"] dd`)).toHaveText(
        change(locale, view.quote.changes[p]!, "relative"),
      );
    expect(top.change).toBeCloseTo(view.quote.changes.month!, 12);
    const vol = view.volatilities[1]!;
    await expect(article.locator('tr[data-window="1"] td')).toHaveText(
      num(locale, vol, { style: "percent", minimumFractionDigits: 1, maximumFractionDigits: 1 }),
    );
    await expect(article.getByTestId("chart-readout")).toHaveText(
      `${longDate(locale, view.quote.lastDate!)} ${close(locale, view.quote.last!, view.quote)}`,
    );
    await saveShot(page, `markets-asset-${locale}`);
    await article.page().getByTestId("back-to-markets").click();
    await expect(page.locator('[data-widget="indices"]')).toBeVisible({ timeout: 20_000 });

    expect(errors).toEqual([]);
  });
}

test("the markets answers carry Cache-Control and an ETag, and 304 when unchanged", async ({
  request,
}) => {
  const first = await request.get("/api/market/overview");
  const etag = first.headers()["etag"]!;
  expect(first.headers()["cache-control"]).toContain("max-age=");
  const again = await request.get("/api/market/overview", { headers: { "If-None-Match": etag } });
  expect(again.status()).toBe(304);
});
