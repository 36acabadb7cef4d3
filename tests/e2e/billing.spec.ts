// Plans, payments and billing (issue "Billing", docs/billing.md), in both languages on the ht
// edition: a new person starts the trial, buys hollytools standard monthly on the sandbox's
// checkout page, upgrades to advanced annual at the prorated charge (the figure on screen is the
// API's quote and the documented formula, and the invoice's total to the cent), cancels,
// reactivates, schedules a downgrade; a declined card changes nothing and its retry with an
// authentication card passes the sandbox's challenge. Permissions are read from the API before
// and after each step. On the tt edition, a TT account never reaches billing.
import type { Browser, Page } from "@playwright/test";
import { readFileSync } from "node:fs";
import { accountPaths, dismissCookieBannerWhenShown } from "./accounts-support.ts";
import {
  apiAs,
  atPath,
  bearerOf,
  billingPaths as paths,
  billingTexts as t,
  DEMO_PASSWORD,
  money,
  payOnSandbox,
  prorateToAnotherPeriod,
  shots,
  signUpNewPerson,
  testCards,
} from "./billing-support.ts";
import { expect, test, texts, type E2eOptions, type Locale } from "./fixtures.ts";

const PRICES = { standardMonthly: 990, advancedAnnual: 19900, monkStandardMonthly: 490 };

/** The three questions with their defaults, then the full analysis of the portfolio being made. */
async function openFullAnalysisOfANewPortfolio(page: Page, locale: Locale) {
  const words = {
    amountToInvest: { en: "Amount to invest", es: "Importe a invertir" },
    next: { en: "Next", es: "Siguiente" },
    loss: { en: "Loss you could bear, in EUR", es: "Pérdida que podrías soportar, en EUR" },
    build: { en: "Build my portfolio", es: "Construir mi cartera" },
    seeFullAnalysis: { en: "See the full analysis", es: "Ver el análisis completo" },
  };
  await page.goto(paths.q1[locale]);
  await page.getByLabel(words.amountToInvest[locale]).fill("10000");
  await page.getByRole("button", { name: words.next[locale], exact: true }).click();
  await expect(page).toHaveURL(atPath(paths.q2[locale]));
  await page.getByLabel(words.loss[locale]).fill("900");
  await page.getByRole("button", { name: words.next[locale], exact: true }).click();
  await expect(page).toHaveURL(atPath(paths.q3[locale]));
  await page.getByRole("button", { name: words.build[locale] }).click();
  await expect(page).toHaveURL(atPath(paths.summary[locale]));
  // As a person would, read the portfolio's risk before going on.
  await expect(page.getByTestId("live-volatility")).toBeVisible();
  await page.getByRole("link", { name: words.seeFullAnalysis[locale] }).click();
  await expect(page).toHaveURL(atPath(paths.fullAnalysis[locale]));
  await expect(page.locator('[data-block="var"]')).toBeVisible();
}

for (const locale of ["en", "es"] as const) {
  test.describe(`billing journey (${locale})`, () => {
    test.describe.configure({ mode: "serial" });
    test.skip(({ edition }) => edition !== "ht", "plans and trials are sold on the ht edition");
    test.slow(!!process.env.E2E_SHOTS_DIR, "screenshots at two widths");

    let page: Page;
    let api: ReturnType<typeof apiAs>;

    // One person and one page for the whole journey (the tests run in order, each on the last).
    test.beforeAll(async ({ browser }: { browser: Browser }, testInfo) => {
      const use = testInfo.project.use as typeof testInfo.project.use & E2eOptions;
      if (use.edition !== "ht") return;
      const context = await browser.newContext({
        baseURL: use.baseURL,
        locale: "en-US",
        acceptDownloads: true,
      });
      page = await context.newPage();
      await dismissCookieBannerWhenShown(page);
    });

    test.afterAll(async () => {
      await page?.context().close();
    });

    test("a new person signs up and starts the trial from the plan page", async ({ edition }) => {
      await signUpNewPerson(page, locale, edition, "Mary", "Mechanism-of-Heavens-1831");
      api = apiAs(page.request, await bearerOf(page.context()));

      const before = await api.client();
      expect(before.subscriptions.simAssets!.tier).toBe("free");
      expect(before.permissions.simAssets!.analysis.componentRisk2).toBe(false);
      expect(before.permissions.simAssets!.analysis.var).toBe(false);
      expect(before.trialEndsAt).toBeNull();
      expect((await api.product("simAssets")).state).toBe("free");

      await page.goto(paths.choosePlan[locale]);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(t.choosePlan[locale]);
      await shots(page, `choose-plan-free-${locale}`);
      await page.getByRole("button", { name: t.tryFree[locale] }).click();
      await expect(page.getByRole("status")).toHaveText(t.trialStarted[locale]);

      const after = await api.client();
      expect(after.permissions.simAssets!.analysis.componentRisk2).toBe(true);
      expect(after.subscriptions.simAssets!.tier).toBe("advanced");
      expect(after.trialEndsAt).not.toBeNull();
      const days = (Date.parse(after.trialEndsAt!) - Date.now()) / 86_400_000;
      expect(days).toBeGreaterThan(13.9);
      expect(days).toBeLessThanOrEqual(14);
      expect((await api.product("simAssets")).state).toBe("trial");
    });

    test("buys hollytools standard monthly with a card that succeeds", async () => {
      expect((await api.billing()).invoices).toHaveLength(0);

      await page.goto(`${paths.choosePlan[locale]}?product=simAssets`);
      await page.getByRole("button", { name: t.monthly[locale], exact: true }).click();
      await page
        .getByRole("listitem")
        .filter({ has: page.getByRole("heading", { name: t.standard[locale], exact: true }) })
        .getByRole("link", {
          name: `${locale === "en" ? "Choose" : "Elegir"} ${t.standard[locale]}`,
        })
        .click();

      await expect(page).toHaveURL(atPath(paths.confirm[locale]));
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(t.confirmTitle[locale]);
      const price = money(PRICES.standardMonthly, locale);
      await expect(page.getByTestId("change-kind")).toHaveText(t.startsToday[locale]);
      await expect(page.getByTestId("charge-now")).toHaveText(price);
      await page.getByLabel(t.nameOnInvoice[locale], { exact: true }).fill("Mary Somerville");
      await page.getByLabel(t.country[locale], { exact: true }).selectOption("ES");
      await page
        .getByRole("button", { name: `${t.pay[locale]} ${price} ${t.andContinue[locale]}` })
        .click();

      // The sandbox's own page (server-rendered, in the payer's language).
      await expect(page).toHaveURL(/\/sandbox\/checkout\//);
      await expect(page.locator("html")).toHaveAttribute("lang", locale);
      await shots(page, `sandbox-checkout-${locale}`);
      await payOnSandbox(page, locale, testCards.succeeds, price);

      await expect(page).toHaveURL(atPath(paths.paymentComplete[locale]));
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(t.paymentComplete[locale]);
      const invoiceLine = page.getByTestId("invoice-number");
      await expect(invoiceLine).toContainText(t.yourInvoiceIs[locale]);
      const invoiceNumber = /\d{4}-\d{6}/.exec((await invoiceLine.textContent()) ?? "")?.[0];
      expect(invoiceNumber).toBeTruthy();
      await shots(page, `payment-complete-success-${locale}`);

      // The API: standard, monthly, active; the trial's advanced blocks are gone.
      const client = await api.client();
      expect(client.subscriptions.simAssets!.tier).toBe("standard");
      expect(client.permissions.simAssets!.analysis.var).toBe(true);
      expect(client.permissions.simAssets!.analysis.componentRisk2).toBe(false);
      const billing = await api.billing();
      const assets = billing.products.find((p) => p.product === "simAssets")!;
      expect(assets.state).toBe("active");
      expect(assets.period).toBe("monthly");
      expect(billing.invoices).toHaveLength(1);
      expect(billing.invoices[0]!.number).toBe(invoiceNumber);
      expect(billing.invoices[0]!.totalCents).toBe(PRICES.standardMonthly);

      // Listed on billing-subscription, and its PDF downloads.
      await page.goto(paths.billing[locale]);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(t.billingTitle[locale]);
      const list = page.getByRole("list", { name: t.invoices[locale] });
      await expect(list.getByRole("listitem")).toHaveCount(1);
      await expect(list.getByRole("listitem").first()).toContainText(invoiceNumber!);
      await expect(list.getByRole("listitem").first()).toContainText(price);
      await shots(page, `billing-standard-${locale}`);
      const download = page.waitForEvent("download");
      await list
        .getByRole("button", { name: `${t.downloadInvoice[locale]} ${invoiceNumber} (PDF)` })
        .click();
      const file = await download;
      expect(file.suggestedFilename()).toBe(`invoice-${invoiceNumber}.pdf`);
      const bytes = readFileSync((await file.path())!);
      expect(bytes.subarray(0, 4).toString("latin1")).toBe("%PDF");
    });

    test("upgrades to advanced annual at the prorated charge; the advanced blocks unlock", async () => {
      // Standard: the risk contribution block of the full analysis is locked.
      await openFullAnalysisOfANewPortfolio(page, locale);
      const block = page.locator('[data-block="component-risk-2"]');
      await expect(block).toHaveClass(/\blocked\b/);
      await expect(block).toContainText(t.includedInAdvanced[locale]);

      const choice = { product: "simAssets", tier: "advanced", period: "annual", currency: "EUR" };
      const assets = await api.product("simAssets");
      expect(assets.periodStart).not.toBeNull();
      expect(assets.next?.event).toBe("renewal");
      const formula = prorateToAnotherPeriod(
        PRICES.standardMonthly,
        PRICES.advancedAnnual,
        assets.periodStart!,
        assets.next!.date,
        new Date(),
      );

      await page.goto(`${paths.choosePlan[locale]}?product=simAssets`);
      await page.getByRole("button", { name: t.annual[locale], exact: true }).click();
      await page
        .getByRole("listitem")
        .filter({ has: page.getByRole("heading", { name: t.advanced[locale], exact: true }) })
        .getByRole("link", {
          name: `${locale === "en" ? "Choose" : "Elegir"} ${t.advanced[locale]}`,
        })
        .click();
      await expect(page).toHaveURL(atPath(paths.confirm[locale]));
      await expect(page.getByTestId("change-kind")).toHaveText(t.isUpgrade[locale]);
      const shown = page.getByTestId("charge-now");
      await expect(shown).toHaveText(/\d/);
      const quote = await api.quote(choice);
      expect(quote.change).toBe("upgrade");
      expect(quote.chargeNowCents).toBe(formula);
      const charge = money(formula, locale);
      await expect(shown).toHaveText(money(quote.chargeNowCents, locale));
      await expect(shown).toHaveText(charge);
      await expect(page.getByText(t.credit[locale])).toBeVisible();
      await shots(page, `confirm-upgrade-${locale}`);

      // The invoice details are kept from the first purchase.
      await expect(page.getByLabel(t.nameOnInvoice[locale], { exact: true })).toHaveValue(
        "Mary Somerville",
      );
      await page
        .getByRole("button", { name: `${t.pay[locale]} ${charge} ${t.andContinue[locale]}` })
        .click();
      await payOnSandbox(page, locale, testCards.succeeds, charge);
      await expect(page).toHaveURL(atPath(paths.paymentComplete[locale]));
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(t.paymentComplete[locale]);
      await expect(page.getByTestId("unlocked")).toBeVisible();

      // The newest invoice is that same amount to the cent; the plan is advanced annual now.
      const billing = await api.billing();
      expect(billing.invoices).toHaveLength(2);
      const newest = [...billing.invoices].sort((a, b) => b.number.localeCompare(a.number))[0]!;
      expect(newest.totalCents).toBe(formula);
      await expect(page.getByTestId("invoice-number")).toContainText(newest.number);
      const upgraded = billing.products.find((p) => p.product === "simAssets")!;
      expect(upgraded.subscription.tier).toBe("advanced");
      expect(upgraded.period).toBe("annual");
      const client = await api.client();
      expect(client.permissions.simAssets!.analysis.componentRisk2).toBe(true);
      expect(client.permissions.simAssets!.analysis.currencyRisk).toBe(true);

      // At once on screen too: the same block of the full analysis is open.
      await openFullAnalysisOfANewPortfolio(page, locale);
      await expect(block).not.toHaveClass(/\blocked\b/);
      await expect(block).not.toContainText(t.includedInAdvanced[locale]);
    });

    test("cancels, reactivates and schedules a downgrade to standard monthly", async () => {
      await page.goto(paths.billing[locale]);
      const card = page.locator('[data-product="simAssets"]');
      await expect(card.getByText(t.stateActive[locale], { exact: true })).toBeVisible();

      await card.getByRole("button", { name: t.cancelPlan[locale] }).click();
      // Cancelling asks once more (PRODUCT.md, "Money"); keeping the plan is offered beside.
      await card.getByRole("button", { name: t.confirmCancel[locale] }).click();
      await expect(page.getByRole("status")).toHaveText(t.planCancelled[locale]);
      await expect(card.getByText(t.stateCancelled[locale], { exact: true })).toBeVisible();
      let assets = await api.product("simAssets");
      expect(assets.state).toBe("cancelled");
      expect(assets.subscription.cancelled).toBe(true);
      expect(assets.subscription.tier).toBe("advanced");
      expect(assets.next?.event).toBe("ends");
      let client = await api.client();
      expect(client.subscriptions.simAssets!.cancelled).toBe(true);
      expect(client.permissions.simAssets!.analysis.componentRisk2).toBe(true);

      await card.getByRole("button", { name: t.reactivate[locale] }).click();
      await expect(page.getByRole("status")).toHaveText(t.planReactivated[locale]);
      await expect(card.getByText(t.stateActive[locale], { exact: true })).toBeVisible();
      assets = await api.product("simAssets");
      expect(assets.state).toBe("active");
      expect(assets.subscription.cancelled).toBe(false);
      client = await api.client();
      expect(client.subscriptions.simAssets!.cancelled).toBe(false);
      expect(client.permissions.simAssets!.analysis.componentRisk2).toBe(true);

      // The downgrade: nothing now, the standard plan from the period end.
      await page.goto(`${paths.choosePlan[locale]}?product=simAssets`);
      await page.getByRole("button", { name: t.monthly[locale], exact: true }).click();
      await page
        .getByRole("listitem")
        .filter({ has: page.getByRole("heading", { name: t.standard[locale], exact: true }) })
        .getByRole("link", {
          name: `${locale === "en" ? "Choose" : "Elegir"} ${t.standard[locale]}`,
        })
        .click();
      await expect(page).toHaveURL(atPath(paths.confirm[locale]));
      await expect(page.getByTestId("change-kind")).toHaveText(t.isDowngrade[locale]);
      await shots(page, `confirm-downgrade-${locale}`);
      await page.getByRole("button", { name: t.scheduleChange[locale] }).click();
      await expect(page.getByRole("status")).toHaveText(t.changeScheduled[locale]);

      assets = await api.product("simAssets");
      expect(assets.scheduledChange).toMatchObject({ tier: "standard", period: "monthly" });
      expect(assets.subscription.tier).toBe("advanced");
      expect(assets.next?.event).toBe("change");
      expect((await api.billing()).invoices).toHaveLength(2);
      client = await api.client();
      expect(client.subscriptions.simAssets!.tier).toBe("advanced");
      expect(client.permissions.simAssets!.analysis.componentRisk2).toBe(true);

      await page.goto(paths.billing[locale]);
      await expect(card).toContainText(t.scheduled[locale]);
      await shots(page, `billing-scheduled-${locale}`);
    });

    test("a declined card changes nothing; the retry with an authentication card succeeds", async () => {
      const before = await api.billing();
      const clientBefore = await api.client();
      expect(clientBefore.subscriptions.simMonk!.tier).toBe("free");
      const monkBefore = clientBefore.permissions.simMonk!;

      await page.goto(`${paths.choosePlan[locale]}?product=simMonk`);
      await page.getByRole("button", { name: t.monthly[locale], exact: true }).click();
      await page
        .getByRole("listitem")
        .filter({ has: page.getByRole("heading", { name: t.standard[locale], exact: true }) })
        .getByRole("link", {
          name: `${locale === "en" ? "Choose" : "Elegir"} ${t.standard[locale]}`,
        })
        .click();
      await expect(page).toHaveURL(atPath(paths.confirm[locale]));
      const price = money(PRICES.monkStandardMonthly, locale);
      await expect(page.getByTestId("charge-now")).toHaveText(price);
      await page
        .getByRole("button", { name: `${t.pay[locale]} ${price} ${t.andContinue[locale]}` })
        .click();
      await payOnSandbox(page, locale, testCards.declined, price);

      await expect(page).toHaveURL(atPath(paths.paymentComplete[locale]));
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(t.paymentFailed[locale]);
      await expect(page.getByTestId("failure-reason")).toHaveText(t.declined[locale]);
      await expect(page.getByText(t.nothingCharged[locale])).toBeVisible();
      const retry = page.getByRole("button", { name: t.tryAgain[locale], exact: true });
      await expect(retry).toBeVisible();
      await shots(page, `payment-complete-declined-${locale}`);

      // Nothing changed: the same tiers, permissions and invoices.
      const after = await api.billing();
      expect(after.invoices).toEqual(before.invoices);
      const clientAfter = await api.client();
      expect(clientAfter.subscriptions.simMonk!.tier).toBe("free");
      expect(clientAfter.subscriptions.simAssets!.tier).toBe("advanced");
      expect(clientAfter.permissions.simMonk).toEqual(monkBefore);
      expect(after.products.find((p) => p.product === "simMonk")!.state).toBe("free");

      // The retry: the sandbox again, a card that asks for authentication, approved.
      await retry.click();
      await payOnSandbox(page, locale, testCards.authenticate, price);
      await expect(page).toHaveURL(/\/sandbox\/challenge\//);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(t.challengeTitle[locale]);
      await shots(page, `sandbox-challenge-${locale}`);
      await page.getByRole("button", { name: t.approve[locale], exact: true }).click();
      await expect(page).toHaveURL(atPath(paths.paymentComplete[locale]));
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(t.paymentComplete[locale]);
      await expect(page.getByTestId("invoice-number")).toContainText(t.yourInvoiceIs[locale]);

      const paid = await api.billing();
      expect(paid.invoices).toHaveLength(before.invoices.length + 1);
      const monk = paid.products.find((p) => p.product === "simMonk")!;
      expect(monk.subscription.tier).toBe("standard");
      expect(monk.state).toBe("active");
      const clientPaid = await api.client();
      expect(clientPaid.permissions.simMonk!.construction.simulator).toBe(true);
      expect(clientPaid.subscriptions.simAssets!.tier).toBe("advanced");
    });
  });
}

test.describe("billing is not for TT accounts", () => {
  test.skip(({ edition }) => edition !== "tt", "TT accounts exist for the tt edition");

  test("a TT account cannot reach choose-your-plan or billing, and the API answers 403", async ({
    page,
    context,
    baseURL,
  }) => {
    await dismissCookieBannerWhenShown(page);
    const locale: Locale = "es";
    await page.goto(accountPaths.signIn[locale]);
    await page.getByLabel("Email", { exact: true }).fill("tt@demo.test");
    await page.getByLabel("Contraseña", { exact: true }).fill(DEMO_PASSWORD);
    await page
      .getByRole("main")
      .getByRole("button", { name: texts.signIn[locale], exact: true })
      .click();
    await expect(page).toHaveURL(atPath(accountPaths.myPortfolios[locale]));

    for (const screen of [paths.choosePlan, paths.billing, paths.confirm] as const) {
      await page.goto(screen[locale]);
      await expect(page).toHaveURL(`${baseURL}${accountPaths.home[locale]}`);
    }

    const headers = { Authorization: `Bearer ${await bearerOf(context)}` };
    const choice = { product: "simAssets", tier: "standard", period: "monthly", currency: "EUR" };
    const calls = [
      page.request.get("/api/billing", { headers }),
      page.request.post("/api/billing/quote", { headers, data: choice }),
      page.request.post("/api/billing/checkout", {
        headers,
        data: { ...choice, idempotencyKey: "tt-account-checkout-0001" },
      }),
      page.request.post("/api/billing/trial", { headers, data: { product: "simAssets" } }),
      page.request.get("/api/client/invoice-info", { headers }),
    ];
    for (const response of await Promise.all(calls)) {
      expect(response.status(), response.url()).toBe(403);
      expect((await response.json()).msgCode).toBe("ACCOUNT_KIND_FORBIDDEN");
    }
  });
});
