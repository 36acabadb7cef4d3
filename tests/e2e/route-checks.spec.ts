// Every route of the route table (src/app/route-table.ts, read by tests/e2e/route-support.ts: a
// route added later is checked without editing this file), in both languages, in the edition of the
// Playwright project, at 1280 and 390 px, as the first account kind whose guards let it in. One
// page load per route and language; at each width:
// - no horizontal overflow of the page (document scrollWidth ≤ viewport width);
// - no focusable control covered by another element at its centre once scrolled into view;
// - axe-core: no serious or critical violation;
// - no console error (nor uncaught exception);
// - the page's language only: no English catalogue text on a Spanish page, and the reverse;
// - the layout checks of tests/e2e/layout-checks.ts: no clipped text, no overlapping chart text,
//   the header on one row at 1280, no text under 11 px at 390, no internal identifier.
// With E2E_SHOTS_DIR set it also writes the screenshot gallery (npm run gallery).
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "@playwright/test";
import { dismissCookieBannerWhenShown, readyContext } from "./accounts-support.ts";
import { axeViolations } from "./axe.ts";
import { layoutFailures, layoutFindings } from "./layout-checks.ts";
import { pickShares, type UniverseStocks } from "./banana-support.ts";
import { expect, test, type Edition, type Locale } from "./fixtures.ts";
import {
  languageTexts,
  planFor,
  routePath,
  tableRoutes,
  type CheckAccount,
  type RoutePlan,
  type TableRoute,
} from "./route-support.ts";

const routes = tableRoutes();
const texts = languageTexts();
const widths = [1280, 390] as const;

/** A signed-in (or guest) browser context per account, made once per worker. */
interface Session {
  readonly context: BrowserContext;
  readonly token: string | null;
}

/** One promise per key: made by the first call, shared by every later one. */
function once<T>(made: Map<string, Promise<T>>, key: string, make: () => Promise<T>): Promise<T> {
  let value = made.get(key);
  if (!value) {
    value = make();
    made.set(key, value);
  }
  return value;
}

const sessions = new Map<string, Promise<Session>>();

function sessionFor(browser: Browser, baseURL: string, account: CheckAccount) {
  // Signed in through the API with the banner answered: the checks look at the pages, not at the
  // banner or the sign-in screen (consent.spec.ts and accounts-journey.spec.ts cover those).
  return once(sessions, `${baseURL} ${account.email ?? "guest"}`, () =>
    readyContext(browser, baseURL, account.email),
  );
}

test.afterAll(async () => {
  for (const s of sessions.values()) await (await s).context.close();
  sessions.clear();
});

/** A saved portfolio of the account (made through the API), for routes with an id or a workspace. */
const portfolios = new Map<string, Promise<number>>();

function portfolioOf(page: Page, token: string): Promise<number> {
  return once(portfolios, token, async () => {
    const headers = { Authorization: `Bearer ${token}` };
    const proposed = await page.request.post("/api/portfolios/propose", {
      headers,
      data: {
        currency: "EUR",
        answers: {
          universe: [],
          amount: 10_000,
          maxToLose95: null,
          ordering: "balanced",
          maxAssetsLevel: 0,
        },
      },
    });
    expect(proposed.ok(), await proposed.text()).toBe(true);
    const assets = (
      (await proposed.json()) as { assets: { symbol: string; investedAmount: number }[] }
    ).assets;
    const saved = await page.request.post("/api/portfolios", {
      headers,
      data: {
        name: `Route checks ${Date.now()}`,
        currency: "EUR",
        assets: assets.map((a) => ({ id: a.symbol, investedAmount: a.investedAmount })),
      },
    });
    expect(saved.ok(), await saved.text()).toBe(true);
    return ((await saved.json()) as { id: number }).id;
  });
}

/**
 * A banana portfolio of the account: one these checks made before, or one made through the API
 * (`pickShares`, in a region with room). Reusing one keeps the checks from filling the account's
 * places, which tests/e2e/banana-create.spec.ts also uses.
 */
const bananas = new Map<string, Promise<number>>();

function bananaOf(page: Page, token: string): Promise<number> {
  return once(bananas, token, async () => {
    const headers = { Authorization: `Bearer ${token}` };
    const listed = await page.request.get("/api/banana/portfolios", { headers });
    expect(listed.ok(), await listed.text()).toBe(true);
    const list = (await listed.json()) as {
      portfolios: { id: number; name: string }[];
      capacity: Record<"eu" | "usa", number>;
    };
    // Only one these checks made: other tests delete what they create.
    const made = list.portfolios.find((p) => p.name.startsWith("Route checks"));
    if (made) return made.id;
    const region = list.capacity.usa > 0 ? "usa" : "eu";
    const read = await page.request.get(`/api/banana/universe?region=${region}`, { headers });
    expect(read.ok(), await read.text()).toBe(true);
    const assets = pickShares((await read.json()) as UniverseStocks, 3);
    const created = await page.request.post("/api/banana/portfolios", {
      headers,
      data: { name: `Route checks ${Date.now() % 100_000}`, region, assets },
    });
    expect(created.status(), await created.text()).toBe(201);
    return ((await created.json()) as { id: number }).id;
  });
}

/** The id a route's `{id}` stands for: each route with an id names how to get one here. */
const idProviders: Record<string, (page: Page, token: string) => Promise<number>> = {
  "account-portfolio": portfolioOf,
  "account-banana-portfolio": bananaOf,
};

const creationTexts = {
  amountToInvest: { en: "Amount to invest", es: "Importe a invertir" },
  next: { en: "Next", es: "Siguiente" },
  build: { en: "Build my portfolio", es: "Construir mi cartera" },
} as const;

const byId = new Map(routes.map((r) => [r.id, r]));

/** Moves the single-page app to a path without a reload (the workspace lives in memory). */
async function navigateInApp(page: Page, target: string) {
  await page.evaluate((to) => {
    window.history.pushState(null, "", to);
    window.dispatchEvent(new PopStateEvent("popstate"));
  }, target);
}

/** Answers q1-q3 with their defaults up to the target (the wizard's own screens), then moves there. */
async function throughTheWizard(page: Page, locale: Locale, target: string) {
  const step = (id: string) => routePath(byId.get(id)!, locale, null);
  await page.goto(step("create-q1"));
  await page.getByLabel(creationTexts.amountToInvest[locale]).fill("10000");
  if (target === step("create-q1")) return;
  await page.getByRole("button", { name: creationTexts.next[locale], exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`${step("create-q2")}$`));
  if (target === step("create-q2")) return;
  await page.getByRole("button", { name: creationTexts.next[locale], exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`${step("create-q3")}$`));
  if (target === step("create-q3")) return;
  await page.getByRole("button", { name: creationTexts.build[locale] }).click();
  await expect(page).toHaveURL(new RegExp(`${step("create-summary")}$`), { timeout: 30_000 });
  await expect(page.getByRole("table").first()).toBeVisible({ timeout: 30_000 });
  if (target !== step("create-summary")) await navigateInApp(page, target);
}

/**
 * Counts the page's requests in flight (fetches, scripts, styles, the document), so that a check
 * can wait for the network to be quiet without `networkidle`'s fixed half second of silence.
 */
const inFlight = new WeakMap<Page, { count: number; changed: number }>();

function trackRequests(page: Page) {
  const state = { count: 0, changed: Date.now() };
  inFlight.set(page, state);
  const change = (by: number) => () => {
    state.count += by;
    state.changed = Date.now();
  };
  page.on("request", change(1));
  page.on("requestfinished", change(-1));
  page.on("requestfailed", change(-1));
}

/**
 * Waits for the screen: its heading, no request in flight for a moment (a screen that polls is
 * checked between its calls), no spinner. Conditions only: never a fixed wait.
 */
async function settled(page: Page) {
  await expect(page.locator("main h1").first()).toBeVisible({ timeout: 15_000 });
  const state = inFlight.get(page);
  if (state)
    await expect
      .poll(() => state.count === 0 && Date.now() - state.changed >= 150, {
        intervals: [50],
        timeout: 15_000,
      })
      .toBe(true)
      .catch(() => undefined);
  // Spinners gone and nothing busy; a screen that stays busy is checked as it is.
  await expect(page.locator('main .spinner, main [aria-busy="true"]'))
    .toHaveCount(0, { timeout: 15_000 })
    .catch(() => undefined);
}

interface PageFindings {
  readonly scrollWidth: number;
  readonly viewport: number;
  readonly covered: string[];
  readonly wrongLanguage: string[];
}

/** The in-page checks: overflow, covered controls, texts of the other language. */
function inspect(page: Page, locale: Locale): Promise<PageFindings> {
  const foreign = locale === "es" ? texts.en : texts.es;
  return page.evaluate(
    ({ foreign }) => {
      const describe = (el: Element) => {
        const name =
          el.getAttribute("aria-label") ??
          (el as HTMLInputElement).labels?.[0]?.textContent ??
          el.textContent ??
          "";
        const id = el.id ? `#${el.id}` : "";
        return `${el.tagName.toLowerCase()}${id} "${name.trim().replace(/\s+/g, " ").slice(0, 50)}"`;
      };
      const focusable = [
        ...document.querySelectorAll<HTMLElement>(
          'a[href], button, input:not([type="hidden"]), select, textarea, summary, [tabindex]:not([tabindex="-1"])',
        ),
      ].filter(
        (el) =>
          !(el as HTMLButtonElement).disabled &&
          el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true }) &&
          el.getBoundingClientRect().width > 1 &&
          el.getBoundingClientRect().height > 1 &&
          !el.closest("[inert], [aria-hidden='true']"),
      );
      const covered: string[] = [];
      const active = document.activeElement as HTMLElement | null;
      for (const el of focusable) {
        // Focused, as a keyboard user meets it (a skip link shows only then), coming down the
        // page from the top: scrolled just into view, at the bottom edge where sticky panels sit.
        el.focus({ preventScroll: true });
        window.scrollTo({ top: 0, left: 0, behavior: "instant" });
        el.scrollIntoView({ block: "nearest", inline: "nearest", behavior: "instant" });
        // The first box of the control: a link that wraps has no ink at its bounding box's centre.
        const r = el.getClientRects()[0] ?? el.getBoundingClientRect();
        const x = Math.min(Math.max(r.left + r.width / 2, 0), window.innerWidth - 1);
        const y = Math.min(Math.max(r.top + r.height / 2, 0), window.innerHeight - 1);
        const hit = document.elementFromPoint(x, y);
        el.blur();
        if (!hit || el === hit || el.contains(hit)) continue;
        const labels = [...((el as HTMLInputElement).labels ?? [])];
        if (labels.some((l) => l === hit || l.contains(hit))) continue;
        // The control's own decoration drawn over it (custom checkboxes and radios).
        if (el.parentElement?.contains(hit)) continue;
        covered.push(`${describe(el)} under ${describe(hit)}`);
      }
      active?.focus({ preventScroll: true });
      window.scrollTo({ top: 0, behavior: "instant" });

      const patterns = foreign.map((text) => {
        const parts = text.split(/\{[^}]*\}/);
        return parts.length === 1
          ? { text, exact: true as const, re: null }
          : {
              text,
              exact: false as const,
              re: new RegExp(
                `^${parts.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join(".+?")}$`,
                "s",
              ),
            };
      });
      const exact = new Set(patterns.filter((p) => p.exact).map((p) => p.text));
      const withPlaceholders = patterns.filter((p) => !p.exact);
      const seen = new Set<string>();
      const wrongLanguage: string[] = [];
      const consider = (raw: string | null) => {
        const value = raw?.trim().replace(/\s+/g, " ");
        if (!value || seen.has(value)) return;
        seen.add(value);
        if (exact.has(value) || withPlaceholders.some((p) => p.re!.test(value)))
          wrongLanguage.push(value);
      };
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      // Text marked as another language (the language switch: lang="en" on a Spanish page) is
      // meant to be in it.
      const pageLanguage = document.documentElement.lang;
      const inPageLanguage = (el: Element) =>
        (el.closest("[lang]")?.getAttribute("lang") ?? pageLanguage).slice(0, 2) ===
        pageLanguage.slice(0, 2);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const parent = n.parentElement;
        if (!parent || parent.closest("script, style, noscript, template")) continue;
        if (!inPageLanguage(parent)) continue;
        if (!parent.checkVisibility()) continue;
        consider(n.textContent);
      }
      for (const el of document.body.querySelectorAll(
        "[aria-label], [placeholder], [title], img[alt]",
      ))
        if (inPageLanguage(el))
          for (const a of ["aria-label", "placeholder", "title", "alt"])
            consider(el.getAttribute(a));
      consider(document.title.split(" · ")[0] ?? null);
      return {
        scrollWidth: document.documentElement.scrollWidth,
        viewport: document.documentElement.clientWidth,
        covered,
        wrongLanguage,
      };
    },
    { foreign },
  );
}

async function axeFindings(page: Page): Promise<string[]> {
  return (await axeViolations(page))
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help} — ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(" "))
          .join(", ")}`,
    );
}

async function galleryShot(page: Page, name: string) {
  const dir = process.env.E2E_SHOTS_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: true });
}

async function checkRoute(
  page: Page,
  route: TableRoute,
  locale: Locale,
  edition: Edition,
  errors: string[],
) {
  const failures: string[] = [];
  for (const width of widths) {
    await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
    // The new width is laid out and painted (a frame after the resize), not a fixed wait.
    await page.waitForFunction((w) => window.innerWidth === w, width);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r(null))));
    const found = await inspect(page, locale);
    const at = `${width}px`;
    if (found.scrollWidth > found.viewport)
      failures.push(
        `${at} overflow: the page is ${found.scrollWidth} px wide at ${found.viewport} px`,
      );
    for (const c of found.covered) failures.push(`${at} covered: ${c}`);
    for (const w of found.wrongLanguage) failures.push(`${at} not ${locale}: "${w}"`);
    for (const a of await axeFindings(page)) failures.push(`${at} axe: ${a}`);
    failures.push(...layoutFailures(await layoutFindings(page), width));
    await galleryShot(page, `${route.id}-${edition}-${locale}-${width}`);
  }
  for (const e of errors) failures.push(`console: ${e}`);
  expect(failures, `${routePath(route, locale, null)} (${edition})`).toEqual([]);
}

/** Opens the route for the account: through the wizard, from a saved portfolio, or directly. */
async function openRoute(
  page: Page,
  route: TableRoute,
  locale: Locale,
  plan: RoutePlan,
  token: string | null,
) {
  const provider = route.paths[locale].includes("{id}") ? idProviders[route.id] : undefined;
  // A route with an id and no provider yet opens id 1 (its screen then shows "not found").
  const id = provider && token ? String(await provider(page, token)) : null;
  const target = routePath(route, locale, id);
  if (plan.workspace === "creation") await throughTheWizard(page, locale, target);
  else if (plan.workspace === "loaded") {
    const opened = routePath(
      byId.get("account-portfolio")!,
      locale,
      String(await portfolioOf(page, token!)),
    );
    await page.goto(opened);
    await settled(page);
    await navigateInApp(page, target);
  } else await page.goto(target);
  return { target, id };
}

/** The guards let this account in: the page stays on (or reaches) the route's path. */
async function onRoute(page: Page, target: string, locale: Locale) {
  await expect(page).toHaveURL(
    (url) =>
      url.pathname.replace(/\/$/, "") === target.replace(/\/$/, "") ||
      (target === `/${locale}` && url.pathname === `/${locale}`),
  );
}

// One page load per route and edition: the English test opens the route, the Spanish one switches
// the same page to Spanish in the app (as the language switch does) and checks it again.
test.describe("route checks", () => {
  test.describe.configure({ mode: "parallel" });

  for (const route of routes) {
    test.describe(route.id, () => {
      test.describe.configure({ mode: "serial" });
      let opened: { page: Page; errors: string[]; id: string | null } | null = null;

      test.afterAll(async () => {
        await opened?.page.close();
        opened = null;
      });

      for (const locale of ["en", "es"] as const) {
        test(`${route.id} ${locale}`, async ({ browser, baseURL, edition }) => {
          test.setTimeout(120_000);
          const plan = planFor(route, edition);
          test.skip(
            !plan,
            `no account kind of the ${edition} edition passes ${route.guards.join(", ")}`,
          );
          let target: string;
          if (!opened) {
            const { context, token } = await sessionFor(browser, baseURL!, plan!.account);
            const page = await context.newPage();
            const errors: string[] = [];
            page.on("console", (m) => {
              if (m.type() === "error") errors.push(m.text());
            });
            page.on("pageerror", (e) => errors.push(e.message));
            trackRequests(page);
            await dismissCookieBannerWhenShown(page);
            opened = { page, errors, id: null };
            ({ target, id: opened.id } = await openRoute(page, route, locale, plan!, token));
          } else {
            // The same page, switched to this language without loading it again.
            target = routePath(route, locale, opened.id);
            await navigateInApp(opened.page, target);
            await expect(opened.page.locator("html")).toHaveAttribute("lang", locale);
          }
          const { page, errors } = opened;
          await onRoute(page, target, locale);
          await settled(page);
          const seen = errors.splice(0);
          await checkRoute(page, route, locale, edition, seen);
        });
      }
    });
  }
});

/** Amounts in the user's format (issue: `3323.96` on a Spanish page where all else is `10.000,00 €`). */
test.describe("numbers in the user's format", () => {
  const formats = {
    es: { typed: "3,323.96", shown: "3.323,96", change: "1.500,5", changed: "1.500,50" },
    en: { typed: "3.323,96", shown: "3,323.96", change: "1,500.5", changed: "1,500.50" },
  } as const;
  for (const locale of ["en", "es"] as const) {
    test(`amounts typed, pasted and shown as in ${locale}`, async ({ browser, baseURL }) => {
      test.setTimeout(120_000);
      const { context } = await sessionFor(browser, baseURL!, {
        email: "assets-standard@demo.test",
        facts: null,
      });
      await context.grantPermissions(["clipboard-read", "clipboard-write"]);
      const page = await context.newPage();
      try {
        await dismissCookieBannerWhenShown(page);
        const f = formats[locale];
        await page.goto(routePath(byId.get("create-q1")!, locale, null));
        const amount = page.getByLabel(creationTexts.amountToInvest[locale]);
        // Pasted in the other language's format: read, then shown in the user's.
        await amount.click();
        await page.evaluate((text) => navigator.clipboard.writeText(text), f.typed);
        await page.keyboard.press("ControlOrMeta+V");
        await amount.blur();
        await expect(amount).toHaveValue(f.shown);
        await page.getByRole("button", { name: creationTexts.next[locale], exact: true }).click();
        await page.getByRole("button", { name: creationTexts.next[locale], exact: true }).click();
        await page.getByRole("button", { name: creationTexts.build[locale] }).click();
        // The proposal was built for the pasted amount (the text in Intl's format of the language).
        const built = new Intl.NumberFormat(locale === "es" ? "es-ES" : "en-US", {
          style: "currency",
          currency: "EUR",
        }).format(3323.96);
        await expect(page.getByText(built, { exact: false }).first()).toBeVisible({
          timeout: 30_000,
        });
        // The holdings' amounts are in the user's format, and a typed one is read as such.
        const first = page
          .getByRole("textbox", { name: locale === "es" ? /^Importe en/ : /^Amount in/ })
          .first();
        const grouped =
          locale === "es" ? /^\d{1,3}(\.\d{3})*(,\d{1,2})?$/ : /^\d{1,3}(,\d{3})*(\.\d{1,2})?$/;
        await expect(first).toHaveValue(grouped);
        await first.fill(f.change);
        await first.press("Enter");
        // Money is shown with two decimals once entered.
        await expect(first).toHaveValue(f.changed);
        await expect(page.getByTestId("holdings-total")).not.toHaveText(built);
      } finally {
        await page.close();
      }
    });
  }
});

/** The layout checks themselves: each reports the defect it is for, and nothing on a clean page. */
test("the layout checks report what they are for", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.setContent(`<html lang="en"><body>
    <header class="site-header" style="width:200px">
      <a href="#" style="display:inline-block;height:60px">Logo</a>
      <a href="#">Home</a> <a href="#">Markets and more</a> <a href="#">Investment simulator</a>
    </header>
    <main>
      <p style="width:80px;overflow:hidden;white-space:nowrap">A sentence far too long for its box</p>
      <p style="width:80px;overflow:hidden;white-space:nowrap;text-overflow:ellipsis">Cut on purpose, with an ellipsis</p>
      <td-like style="display:block;width:40px">Rentabilidad</td-like>
      <p style="font-size:8px">Small print</p>
      <p>Plans of simIndices, series US10Y_MONTHLY</p>
      <span style="position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)">screen reader only simMonk</span>
      <svg width="200" height="40" viewBox="0 0 400 80"><text x="10" y="40" font-size="12">10.0%</text><text x="30" y="40" font-size="12">12.0%</text><text x="300" y="40" font-size="24">far</text></svg>
    </main></body></html>`);
  const phone = await layoutFindings(page);
  expect(phone.clipped).toEqual([
    expect.stringContaining('p "A sentence far too long for its box"'),
    expect.stringContaining('td-like "Rentabilidad"'),
  ]);
  expect(phone.smallText).toEqual([
    expect.stringContaining('"Small print" at 8.0 px'),
    expect.stringContaining('"10.0%" at 6.0 px'),
    expect.stringContaining('"12.0%" at 6.0 px'),
  ]);
  expect(phone.identifiers).toEqual(["simIndices", "US10Y_MONTHLY"]);
  expect(phone.overlappingText).toEqual(['"10.0%" over "12.0%"']);
  expect(phone.headerRows).toBeGreaterThan(1);
  expect(layoutFailures(phone, 1280)).toContain(`1280px header on ${phone.headerRows} rows`);
  expect(layoutFailures(phone, 1280).some((f) => f.includes("under 11 px"))).toBe(false);

  await page.setContent(`<html lang="en"><body>
    <header class="site-header"><a href="#" style="display:inline-block;height:60px">Logo</a> <a href="#">Home</a> <a href="#">Markets</a></header>
    <main><p>hollytools Stocks, TwoTails Index funds, US 10-year yield, AAPL, BRK-B</p>
    <svg width="400" height="80"><text x="10" y="40" font-size="12">10.0%</text><text x="80" y="40" font-size="12">12.0%</text></svg></main>
    </body></html>`);
  expect(layoutFailures(await layoutFindings(page), 390)).toEqual([]);
});

/** The accessibility check itself: axe run in the page reports what it should. */
test("the axe check reports a violation", async ({ page }) => {
  await page.setContent(
    '<html lang="en"><head><title>t</title></head><body><main><img src="data:,"></main></body></html>',
  );
  expect((await axeViolations(page)).map((v) => `${v.id} ${v.impact}`)).toContain(
    "image-alt critical",
  );
});
