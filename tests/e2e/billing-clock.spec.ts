// The sandbox's test clock in a browser (issue 28, docs/billing.md "The sandbox's test clock"), in
// both languages on the ht edition: a renewal charged at the period end (the billing screen's new
// date, a second invoice, a second receipt); a failed renewal through its retries on days 1, 3
// and 7, each with its email, to the end of the plan; a trial's warning three days before its end,
// then its end; a cancellation reaching its date; a scheduled downgrade applied at the renewal; an
// account balance used before the card on the next renewals. The server runs with
// SANDBOX_TEST_CLOCK=true (playwright.config.ts); the clock is moved through its API call, and
// purchases that are not what a walk is about are made through the API. Every amount expected is
// computed here from the documented prices and rules (docs/billing.md), in cents.
import { randomBytes } from "node:crypto";
import type { APIRequestContext, Page } from "@playwright/test";
import { dismissCookieBannerWhenShown } from "./accounts-support.ts";
import {
  apiAs,
  atPath,
  bearerOf,
  billingPaths as paths,
  billingTexts as t,
  money,
  payOnSandbox,
  signUpNewPerson,
} from "./billing-support.ts";
import { expect, test, type Locale } from "./fixtures.ts";

/** docs/billing.md "Plans and prices": hollytools, VAT included, in cents. */
const STANDARD_MONTHLY = 990;
const ADVANCED_MONTHLY = 1990;
/** The sandbox card that pays now and is declined at renewals. */
const DECLINES_RENEWALS = "4000 0000 0000 0341";
const TRIAL_DAYS = 14;
/** The trial's warning goes out three days before its end (PRODUCT.md "Trial"). */
const TRIAL_WARNING_DAYS = 3;
const dayMs = 86_400_000;
/** docs/billing.md "Invoices": the VAT share of a total that includes it (21 %). */
const vatOf = (cents: number) => cents - Math.round(cents / 1.21);

const intlLocale: Record<Locale, string> = { en: "en-US", es: "es-ES" };
/** A date as the screens and the emails write it (long, UTC). */
const longDate = (date: number | string, locale: Locale) =>
  new Intl.DateTimeFormat(intlLocale[locale], { dateStyle: "long", timeZone: "UTC" }).format(
    new Date(date),
  );

const words = {
  renewsOn: { en: "Renews on", es: "Se renueva el" },
  retry: {
    en: "The renewal payment failed",
    es: "El pago de la renovación ha fallado",
  },
  paymentDue: { en: "Payment due", es: "Pago pendiente" },
  free: { en: "Free", es: "Gratis" },
  receipt: { en: "Your hollytools receipt", es: "Recibo de hollytools" },
  failed: {
    en: "We could not charge your hollytools plan",
    es: "No hemos podido cobrar tu plan de hollytools",
  },
  lastAttempt: { en: "last attempt", es: "último intento" },
  yourPlans: { en: "Your plans", es: "Tus planes" },
  freeTrial: { en: "Free trial", es: "Prueba gratuita" },
  trialEnds: {
    en: (date: string) => `Your hollytools trial ends on ${date}`,
    es: (date: string) => `Tu prueba de hollytools termina el ${date}`,
  },
  planEnded: { en: "Your hollytools plan has ended", es: "Tu plan de hollytools ha terminado" },
  endsOn: {
    en: (date: string) => `Ends on ${date}.`,
    es: (date: string) => `Termina el ${date}.`,
  },
  changesOn: {
    en: (date: string) => `Changes on ${date}.`,
    es: (date: string) => `Cambia el ${date}.`,
  },
  keepUntil: {
    en: (date: string) => `You keep the plan until ${date}`,
    es: (date: string) => `Conservas el plan hasta el ${date}`,
  },
  renews: {
    en: (date: string, amount: string) => `Renews on ${date} for ${amount}.`,
    es: (date: string, amount: string) => `Se renueva el ${date} por ${amount}.`,
  },
  renewsFromBalance: {
    en: (date: string, amount: string) =>
      `Renews on ${date} for ${amount}, paid from your account balance: nothing is charged to your card.`,
    es: (date: string, amount: string) =>
      `Se renueva el ${date} por ${amount}, pagado con el saldo de tu cuenta: no se cobra nada en tu tarjeta.`,
  },
  renewsPartly: {
    en: (date: string, amount: string, balance: string, card: string) =>
      `Renews on ${date} for ${amount}: ${balance} from your account balance and ${card} on your card.`,
    es: (date: string, amount: string, balance: string, card: string) =>
      `Se renueva el ${date} por ${amount}: ${balance} del saldo de tu cuenta y ${card} en tu tarjeta.`,
  },
  onAccount: {
    en: (amount: string) => `${amount} on your account`,
    es: (amount: string) => `${amount} a tu favor`,
  },
  whatHappens: {
    en: (amount: string) => `${amount} is charged on that day`,
    es: (amount: string) => `ese día se cobran ${amount}`,
  },
};

interface Email {
  to: string;
  subject: string;
  text: string;
}

async function emailsTo(request: APIRequestContext, to: string): Promise<Email[]> {
  const response = await request.get("/api/dev/outbox");
  expect(response.ok()).toBe(true);
  return ((await response.json()) as Email[]).filter((e) => e.to === to);
}

/** Moves the signed-in account's billing clock forward (the sandbox's test clock). */
async function moveClock(page: Page, token: string, days: number) {
  const response = await page.request.post("/api/billing/test-clock", {
    headers: { Authorization: `Bearer ${token}` },
    data: { days },
  });
  expect(response.ok(), await response.text()).toBe(true);
}

interface InvoiceView {
  number: string;
  totalCents: number;
  vatCents: number;
  lines: { kind: string; tier: string; period: string; amountCents: number }[];
}

/** The invoices and balances as GET /api/billing answers them, newest invoice first. */
async function ledger(request: APIRequestContext, token: string) {
  const response = await request.get("/api/billing", {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(response.ok()).toBe(true);
  return (await response.json()) as {
    invoices: InvoiceView[];
    balances: { currency: string; cents: number }[];
  };
}

/**
 * Buys a hollytools plan through the API (a step the walk is not about): invoice details, a
 * checkout, the sandbox's card form posted, then the payment as the API says it.
 */
async function buyThroughApi(page: Page, token: string, tier: string, period: string) {
  const headers = { Authorization: `Bearer ${token}` };
  const info = await page.request.put("/api/client/invoice-info", {
    headers,
    data: {
      name: "Mary Somerville",
      country: "ES",
      tin: "",
      city: "",
      address: "",
      postalCode: "",
      companyName: "",
      company: false,
    },
  });
  expect(info.ok(), await info.text()).toBe(true);
  const checkout = await page.request.post("/api/billing/checkout", {
    headers,
    data: {
      product: "simAssets",
      tier,
      period,
      currency: "EUR",
      idempotencyKey: randomBytes(16).toString("hex"),
    },
  });
  expect(checkout.ok(), await checkout.text()).toBe(true);
  const { payment } = (await checkout.json()) as {
    payment: { id: string; redirectUrl: string };
  };
  const paid = await page.request.post(payment.redirectUrl, {
    form: { number: "4242 4242 4242 4242", expiry: "12/39", cvc: "123" },
    maxRedirects: 0,
  });
  expect(paid.status()).toBe(303);
  await expect
    .poll(async () => {
      const r = await page.request.get(`/api/billing/payments/${payment.id}`, { headers });
      return ((await r.json()) as { status: string }).status;
    })
    .toBe("succeeded");
}

/** A credit given by hand to the account balance (the sandbox's switch, docs/billing.md). */
async function giveCredit(page: Page, token: string, cents: number) {
  const response = await page.request.post("/api/billing/test-credit", {
    headers: { Authorization: `Bearer ${token}` },
    data: { cents, currency: "EUR" },
  });
  expect(response.ok(), await response.text()).toBe(true);
}

/**
 * Opens the billing screen and waits for its plans: on a busy machine the overview after a move of
 * the clock can take longer than an expectation's 5 s.
 */
async function openBilling(page: Page, locale: Locale) {
  await page.goto(paths.billing[locale]);
  await expect(
    page.getByRole("heading", { level: 2, name: words.yourPlans[locale], exact: true }),
  ).toBeVisible({ timeout: 30_000 });
}

/** Days from now to a date, and a little more (the billing job runs with the move). */
const daysPast = (date: number) => (date - Date.now()) / dayMs + 0.01;

/** Buys hollytools standard monthly through the confirm screen and the sandbox's page. */
async function buyStandardMonthly(page: Page, locale: Locale, card: string) {
  const query = new URLSearchParams({
    product: "simAssets",
    tier: "standard",
    period: "monthly",
    currency: "EUR",
  });
  await page.goto(`${paths.confirm[locale]}?${query}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(t.confirmTitle[locale]);
  const price = money(STANDARD_MONTHLY, locale);
  await expect(page.getByTestId("charge-now")).toHaveText(price);
  await page.getByLabel(t.nameOnInvoice[locale], { exact: true }).fill("Mary Somerville");
  await page.getByLabel(t.country[locale], { exact: true }).selectOption("ES");
  await page
    .getByRole("button", { name: `${t.pay[locale]} ${price} ${t.andContinue[locale]}` })
    .click();
  await payOnSandbox(page, locale, card, price);
  await expect(page).toHaveURL(atPath(paths.paymentComplete[locale]));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(t.paymentComplete[locale]);
}

for (const locale of ["en", "es"] as const) {
  test.describe(`billing through time with the test clock (${locale})`, () => {
    test.skip(({ edition }) => edition !== "ht", "plans are sold on the ht edition");

    test("renews at the period end: a new date, a second invoice and a receipt", async ({
      page,
      edition,
    }) => {
      test.slow();
      await dismissCookieBannerWhenShown(page);
      const email = await signUpNewPerson(
        page,
        locale,
        edition,
        "Mary",
        "Mechanism-of-Heavens-1831",
        { byApi: true },
      );
      const token = await bearerOf(page.context());
      const api = apiAs(page.request, token);
      await buyStandardMonthly(page, locale, "4242 4242 4242 4242");
      const bought = await api.product("simAssets");
      const end = Date.parse(bought.next!.date);

      await moveClock(page, token, (end - Date.now()) / 86_400_000 + 0.01);
      const renewed = await api.product("simAssets");
      expect(renewed.state).toBe("active");
      expect(Date.parse(renewed.next!.date)).toBeGreaterThan(Date.now());
      const billing = await api.billing();
      expect(billing.invoices.map((i) => i.totalCents)).toEqual([
        STANDARD_MONTHLY,
        STANDARD_MONTHLY,
      ]);

      await openBilling(page, locale);
      await expect(page.getByTestId("next-simAssets")).toContainText(words.renewsOn[locale]);
      await expect(
        page.getByRole("list", { name: t.invoices[locale] }).getByRole("listitem"),
      ).toHaveCount(2);
      await expect
        .poll(async () =>
          (await emailsTo(page.request, email)).filter((e) =>
            e.subject.startsWith(words.receipt[locale]),
          ),
        )
        .toHaveLength(2);
    });

    test("retries a failed renewal on days 1, 3 and 7 with an email each, then ends the plan", async ({
      page,
      edition,
    }) => {
      test.slow();
      await dismissCookieBannerWhenShown(page);
      const email = await signUpNewPerson(page, locale, edition, "Ada", "Analytical-Engine-1843", {
        byApi: true,
      });
      const token = await bearerOf(page.context());
      const api = apiAs(page.request, token);
      await buyStandardMonthly(page, locale, DECLINES_RENEWALS);
      const end = Date.parse((await api.product("simAssets")).next!.date);

      const steps = [
        { days: (end - Date.now()) / 86_400_000 + 0.01, state: "pastDue", failures: 1 },
        { days: 1, state: "pastDue", failures: 2 },
        { days: 2, state: "pastDue", failures: 3 },
        { days: 4, state: "free", failures: 4 },
      ];
      for (const step of steps) {
        await moveClock(page, token, step.days);
        expect((await api.product("simAssets")).state).toBe(step.state);
        const failed = (await emailsTo(page.request, email)).filter((e) =>
          e.subject.startsWith(words.failed[locale]),
        );
        expect(failed).toHaveLength(step.failures);
        await openBilling(page, locale);
        const card = page.locator('[data-product="simAssets"]');
        if (step.state === "pastDue") {
          await expect(card.getByText(words.paymentDue[locale], { exact: true })).toBeVisible();
          await expect(page.getByTestId("next-simAssets")).toContainText(words.retry[locale]);
        } else {
          await expect(card.getByText(words.free[locale], { exact: true })).toBeVisible();
          // The outbox lists the newest first: the fourth failure's email says it was the last.
          expect(failed[0]!.text).toContain(words.lastAttempt[locale]);
        }
      }
      expect((await api.client()).permissions.simAssets!.analysis.var).toBe(false);
    });

    test("warns three days before a trial ends, then the account is free again", async ({
      page,
      edition,
    }) => {
      test.slow();
      await dismissCookieBannerWhenShown(page);
      const email = await signUpNewPerson(
        page,
        locale,
        edition,
        "Sophie",
        "Elastic-Surfaces-1816",
        { byApi: true },
      );
      const token = await bearerOf(page.context());
      const api = apiAs(page.request, token);
      const startedBefore = Date.now();
      await page.goto(paths.choosePlan[locale]);
      await page.getByRole("button", { name: t.tryFree[locale] }).click();
      await expect(page.getByRole("status")).toHaveText(t.trialStarted[locale]);
      const started = await api.client();
      const end = Date.parse(started.trialEndsAt!);
      expect(end - startedBefore).toBeGreaterThanOrEqual(TRIAL_DAYS * dayMs - 1000);
      expect(end - Date.now()).toBeLessThanOrEqual(TRIAL_DAYS * dayMs);
      const trialEmails = async (subject: string) =>
        (await emailsTo(page.request, email)).filter((e) => e.subject.startsWith(subject));

      // Just before the warning point nothing is sent; just after it, one warning.
      const before = TRIAL_DAYS - TRIAL_WARNING_DAYS - 0.1;
      await moveClock(page, token, before);
      expect(await trialEmails(words.trialEnds[locale](""))).toHaveLength(0);
      await moveClock(page, token, 0.11);
      // The account's dates moved back by the days moved: the trial now ends that much earlier.
      const endNow = end - Math.round((before + 0.11) * 86_400) * 1000;
      const endsOn = longDate(endNow, locale);
      const warned = await trialEmails(words.trialEnds[locale](""));
      expect(warned.map((e) => e.subject)).toEqual([words.trialEnds[locale](endsOn)]);
      expect((await api.product("simAssets")).state).toBe("trial");
      await openBilling(page, locale);
      const card = page.locator('[data-product="simAssets"]');
      await expect(card.getByText(words.freeTrial[locale], { exact: true })).toBeVisible();
      await expect(page.getByTestId("next-simAssets")).toHaveText(words.endsOn[locale](endsOn));

      // Past the end: free again, on the screen, in the API and by email (once, and no new warning).
      await moveClock(page, token, TRIAL_WARNING_DAYS);
      await openBilling(page, locale);
      await expect(card.getByText(words.free[locale], { exact: true })).toBeVisible();
      await expect(page.getByTestId("next-simAssets")).toHaveCount(0);
      expect((await api.product("simAssets")).state).toBe("free");
      const client = await api.client();
      expect(client.subscriptions.simAssets!.tier).toBe("free");
      expect(client.permissions.simAssets!.analysis.componentRisk2).toBe(false);
      await expect.poll(() => trialEmails(words.planEnded[locale])).toHaveLength(1);
      expect(await trialEmails(words.trialEnds[locale](""))).toHaveLength(1);
      expect((await api.billing()).invoices).toHaveLength(0);
    });

    test("keeps a cancelled plan until its date, then ends it with no renewal charged", async ({
      page,
      edition,
    }) => {
      test.slow();
      await dismissCookieBannerWhenShown(page);
      const email = await signUpNewPerson(page, locale, edition, "Emmy", "Noether-Theorem-1918", {
        byApi: true,
      });
      const token = await bearerOf(page.context());
      const api = apiAs(page.request, token);
      await buyThroughApi(page, token, "standard", "monthly");
      const end = Date.parse((await api.product("simAssets")).next!.date);
      const until = longDate(end, locale);

      await openBilling(page, locale);
      const card = page.locator('[data-product="simAssets"]');
      await card.getByRole("button", { name: t.cancelPlan[locale] }).click();
      // Cancelling asks once more, with the date the plan is kept until.
      await expect(page.getByTestId("cancel-question-simAssets")).toContainText(
        words.keepUntil[locale](until),
      );
      expect((await api.product("simAssets")).state).toBe("active");
      await card.getByRole("button", { name: t.confirmCancel[locale] }).click();
      await expect(page.getByRole("status")).toHaveText(t.planCancelled[locale]);
      await expect(card.getByText(t.stateCancelled[locale], { exact: true })).toBeVisible();
      await expect(page.getByTestId("next-simAssets")).toHaveText(words.endsOn[locale](until));
      expect((await api.product("simAssets")).state).toBe("cancelled");

      await moveClock(page, token, daysPast(end));
      expect((await api.product("simAssets")).state).toBe("free");
      expect((await api.client()).permissions.simAssets!.analysis.var).toBe(false);
      // No renewal: the purchase's invoice is the only one.
      expect((await api.billing()).invoices.map((i) => i.totalCents)).toEqual([STANDARD_MONTHLY]);
      await openBilling(page, locale);
      await expect(card.getByText(words.free[locale], { exact: true })).toBeVisible();
      await expect(
        page.getByRole("list", { name: t.invoices[locale] }).getByRole("listitem"),
      ).toHaveCount(1);
      const mails = await emailsTo(page.request, email);
      expect(mails.filter((e) => e.subject.startsWith(words.planEnded[locale]))).toHaveLength(1);
      expect(mails.filter((e) => e.subject.startsWith(words.receipt[locale]))).toHaveLength(1);
    });

    test("applies a scheduled downgrade at the period end and charges the standard price", async ({
      page,
      edition,
    }) => {
      test.slow();
      await dismissCookieBannerWhenShown(page);
      await signUpNewPerson(page, locale, edition, "Caroline", "Comet-Hunter-1786", {
        byApi: true,
      });
      const token = await bearerOf(page.context());
      const api = apiAs(page.request, token);
      await buyThroughApi(page, token, "advanced", "monthly");
      expect((await api.billing()).invoices.map((i) => i.totalCents)).toEqual([ADVANCED_MONTHLY]);
      const end = Date.parse((await api.product("simAssets")).next!.date);
      const at = longDate(end, locale);

      const query = new URLSearchParams({
        product: "simAssets",
        tier: "standard",
        period: "monthly",
        currency: "EUR",
      });
      await page.goto(`${paths.confirm[locale]}?${query}`);
      // The quote is read when the screen opens: on a busy machine that takes a few seconds.
      await expect(page.getByTestId("change-kind")).toHaveText(t.isDowngrade[locale], {
        timeout: 15_000,
      });
      await expect(
        page.getByText(words.whatHappens[locale](money(STANDARD_MONTHLY, locale))),
      ).toBeVisible();
      await page.getByRole("button", { name: t.scheduleChange[locale] }).click();
      await expect(page.getByRole("status")).toHaveText(t.changeScheduled[locale]);
      await openBilling(page, locale);
      const card = page.locator('[data-product="simAssets"]');
      await expect(card).toContainText(`${t.scheduled[locale]} ${at}`);
      await expect(page.getByTestId("next-simAssets")).toHaveText(words.changesOn[locale](at));

      await moveClock(page, token, daysPast(end));
      const product = await api.product("simAssets");
      expect([product.state, product.subscription.tier, product.period]).toEqual([
        "active",
        "standard",
        "monthly",
      ]);
      expect(product.scheduledChange).toBeNull();
      // The renewal charged the standard price, for the standard plan, on its own invoice.
      const { invoices } = await ledger(page.request, token);
      expect(invoices.map((i) => i.totalCents)).toEqual([STANDARD_MONTHLY, ADVANCED_MONTHLY]);
      expect(invoices[0]!.vatCents).toBe(vatOf(STANDARD_MONTHLY));
      expect(invoices[0]!.lines.map((l) => [l.kind, l.tier, l.period, l.amountCents])).toEqual([
        ["plan", "standard", "monthly", STANDARD_MONTHLY],
      ]);
      await openBilling(page, locale);
      await expect(card.getByText(t.standard[locale], { exact: true })).toBeVisible();
      await expect(card.getByText(t.stateActive[locale], { exact: true })).toBeVisible();
      await expect(page.getByTestId("next-simAssets")).toHaveText(
        words.renews[locale](longDate(product.next!.date, locale), money(STANDARD_MONTHLY, locale)),
      );
      const list = page.getByRole("list", { name: t.invoices[locale] }).getByRole("listitem");
      await expect(list).toHaveCount(2);
      await expect(list.first()).toContainText(money(STANDARD_MONTHLY, locale));
      expect((await api.client()).permissions.simAssets!.analysis.componentRisk2).toBe(false);
    });

    test("uses the account balance before the card on the next renewals, and says so", async ({
      page,
      edition,
    }) => {
      test.slow();
      await dismissCookieBannerWhenShown(page);
      await signUpNewPerson(page, locale, edition, "Hertha", "Ayrton-Ripples-1901", {
        byApi: true,
      });
      const token = await bearerOf(page.context());
      const api = apiAs(page.request, token);
      await buyThroughApi(page, token, "standard", "monthly");
      const CREDIT = 1500;
      await giveCredit(page, token, CREDIT);
      const line = page.getByTestId("next-simAssets");
      const balance = page.getByTestId("balance");
      const renewsOn = async () => longDate((await api.product("simAssets")).next!.date, locale);
      const price = money(STANDARD_MONTHLY, locale);

      // The balance is used before the card (docs/billing.md): the first renewal takes it all.
      const fromBalance1 = Math.min(CREDIT, STANDARD_MONTHLY);
      const card1 = STANDARD_MONTHLY - fromBalance1;
      const left1 = CREDIT - fromBalance1;
      expect(card1).toBe(0);
      await openBilling(page, locale);
      await expect(balance).toContainText(words.onAccount[locale](money(CREDIT, locale)));
      await expect(line).toHaveText(words.renewsFromBalance[locale](await renewsOn(), price));

      let end = Date.parse((await api.product("simAssets")).next!.date);
      await moveClock(page, token, daysPast(end));
      let view = await ledger(page.request, token);
      expect(view.invoices[0]!.totalCents).toBe(card1);
      expect(view.invoices[0]!.lines.map((l) => [l.kind, l.amountCents])).toEqual([
        ["plan", STANDARD_MONTHLY],
        ["balanceUsed", -fromBalance1],
      ]);
      expect(view.balances).toEqual([{ currency: "EUR", cents: left1 }]);
      // The next renewal: what is left of the balance, the rest on the card.
      const fromBalance2 = Math.min(left1, STANDARD_MONTHLY);
      const card2 = STANDARD_MONTHLY - fromBalance2;
      await openBilling(page, locale);
      await expect(balance).toContainText(words.onAccount[locale](money(left1, locale)));
      await expect(line).toHaveText(
        words.renewsPartly[locale](
          await renewsOn(),
          price,
          money(fromBalance2, locale),
          money(card2, locale),
        ),
      );

      end = Date.parse((await api.product("simAssets")).next!.date);
      await moveClock(page, token, daysPast(end));
      view = await ledger(page.request, token);
      expect(view.invoices.map((i) => i.totalCents)).toEqual([card2, card1, STANDARD_MONTHLY]);
      expect(view.invoices[0]!.lines.map((l) => [l.kind, l.amountCents])).toEqual([
        ["plan", STANDARD_MONTHLY],
        ["balanceUsed", -fromBalance2],
      ]);
      expect(view.balances).toEqual([]);
      await openBilling(page, locale);
      await expect(line).toHaveText(words.renews[locale](await renewsOn(), price));
      await expect(balance).toHaveCount(0);
      await expect(
        page.getByRole("list", { name: t.invoices[locale] }).getByRole("listitem").first(),
      ).toContainText(money(card2, locale));
    });
  });
}
