// @vitest-environment jsdom
// The sandbox's test clock at route level (issue 28, docs/billing.md "The sandbox's test clock"), in
// both languages on the ht edition: the real app answered by the real server in-process
// (tests/support/server-tab.tsx), started with SANDBOX_TEST_CLOCK=true. A renewal charged at the
// period end (the billing screen's new date, a second invoice, a second receipt); a failed renewal
// through its retries on days 1, 3 and 7, each with its email, to the end of the plan; a trial's
// warning three days before its end, then its end; a cancellation reaching its date; a scheduled
// downgrade applied at the renewal; an account balance used before the card on the next renewals.
// The clock is moved through its API call; sign-ups, and purchases that are not what a walk is
// about, are made through the API. Every amount expected is computed here from the documented
// prices and rules (docs/billing.md), in cents.
//
// (They were browser walks, tests/e2e/billing-clock.spec.ts; nothing in them needs a browser. The
// sandbox's card page is plain server-rendered HTML that works without scripts: the tab loads it
// in place of the app, checks its amount, fills its form by its labels and posts it as a browser
// does, then opens the app where the sandbox's 303 sends it; leaving the app for that page is the
// app's `leaveApp.assign`, caught here. The pages' layout, which only a browser shows, stays with
// the purchases of tests/e2e/billing.spec.ts, which pay on that page in Chromium.)
import { randomBytes } from "node:crypto";
import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { Locale } from "../../src/contract/common.ts";
import { writeSessionCookie } from "../../src/app/session/session-actor.ts";
import { leaveApp } from "../../src/features/billing/use-subscription.ts";
import {
  browserRequest,
  newBrowser,
  openServerTab,
  openTabServer,
  type TabBrowser,
  type TabServer,
} from "../support/server-tab.tsx";

/** docs/billing.md "Plans and prices": hollytools, VAT included, in cents. */
const STANDARD_MONTHLY = 990;
const ADVANCED_MONTHLY = 1990;
/** The sandbox card that pays now and is declined at renewals. */
const DECLINES_RENEWALS = "4000 0000 0000 0341";
const SUCCEEDS = "4242 4242 4242 4242";
const TRIAL_DAYS = 14;
/** The trial's warning goes out three days before its end (PRODUCT.md "Trial"). */
const TRIAL_WARNING_DAYS = 3;
const dayMs = 86_400_000;
/** docs/billing.md "Invoices": the VAT share of a total that includes it (21 %). */
const vatOf = (cents: number) => cents - Math.round(cents / 1.21);
/** A walk signs up, pays and moves the clock several times, each a full reload of the screens. */
const WALK_MS = 60_000;

const paths = {
  choosePlan: { en: "/en/choose-your-plan", es: "/es/elige-tu-plan" },
  confirm: { en: "/en/subscribe/confirm", es: "/es/suscribete/confirmar" },
  paymentComplete: { en: "/en/payment-complete", es: "/es/pago-realizado" },
  billing: {
    en: "/en/my-account/billing-subscription",
    es: "/es/mi-cuenta/facturacion-suscripcion",
  },
} as const satisfies Record<string, Record<Locale, string>>;

/** Texts of the screens: English from the screens, Spanish from locales/es/messages.po. */
const t = {
  confirmSubject: { en: "Confirm your email for", es: "Confirma tu email en" },
  tryFree: { en: "Try it free for 14 days", es: "Pruébalo gratis 14 días" },
  trialStarted: {
    en: "Your 14-day free trial of hollytools Stocks Advanced has started.",
    es: "Ha empezado tu prueba gratuita de 14 días de hollytools Acciones Avanzado.",
  },
  confirmTitle: { en: "Confirm your subscription", es: "Confirma tu suscripción" },
  isDowngrade: {
    en: "This is a downgrade: it takes effect at the end of your current period.",
    es: "Es un cambio a un plan inferior: se aplica al final de tu periodo actual.",
  },
  nameOnInvoice: { en: "Name on the invoice", es: "Nombre en la factura" },
  country: { en: "Country", es: "País" },
  pay: { en: "Pay", es: "Pagar" },
  andContinue: { en: "and continue", es: "y continuar" },
  scheduleChange: { en: "Schedule the change", es: "Programar el cambio" },
  changeScheduled: {
    en: "Your change is scheduled for the end of your current period.",
    es: "Tu cambio está programado para el final de tu periodo actual.",
  },
  paymentComplete: { en: "Payment complete", es: "Pago realizado" },
  invoices: { en: "Invoices", es: "Facturas" },
  cancelPlan: { en: "Cancel the plan", es: "Cancelar el plan" },
  /** The second question of a cancellation (PRODUCT.md "Cancelling asks once more"). */
  confirmCancel: {
    en: "Yes, cancel at the end of the period",
    es: "Sí, cancelar al final del periodo",
  },
  planCancelled: {
    en: "Your plan is cancelled. It stays until the end of its period.",
    es: "Tu plan está cancelado. Sigue hasta el final de su periodo.",
  },
  standard: { en: "Standard", es: "Estándar" },
  stateActive: { en: "Active", es: "Activo" },
  stateCancelled: { en: "Cancelled", es: "Cancelado" },
  scheduled: {
    en: "Scheduled: the Standard plan (monthly) from",
    es: "Programado: el plan Estándar (mensual) desde el",
  },
  // The sandbox provider's pages (src/server/billing/texts.ts).
  cardNumber: { en: "Card number", es: "Número de tarjeta" },
  expiry: { en: "Expiry (MM/YY)", es: "Caducidad (MM/AA)" },
  cvc: { en: "CVC", es: "CVC" },
} as const satisfies Record<string, Record<Locale, string>>;

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

const intlLocale: Record<Locale, string> = { en: "en-US", es: "es-ES" };
/** Money in cents as the screens write it (Intl in the page's locale). */
const money = (cents: number, locale: Locale) =>
  new Intl.NumberFormat(intlLocale[locale], { style: "currency", currency: "EUR" }).format(
    cents / 100,
  );
/** A date as the screens and the emails write it (long, UTC). */
const longDate = (date: number | string, locale: Locale) =>
  new Intl.DateTimeFormat(intlLocale[locale], { dateStyle: "long", timeZone: "UTC" }).format(
    new Date(date),
  );

/** Text as a browser's text assertions read it: runs of white space as one space, trimmed. */
const norm = (text: string | null | undefined) => (text ?? "").replace(/\s+/g, " ").trim();
/** An element's whole text is `text` (Playwright's toHaveText), once it shows. */
const hasText = (find: () => Element | null, text: string) =>
  waitFor(() => expect(norm(find()?.textContent)).toBe(norm(text)));
/** An element's text contains `text` (Playwright's toContainText), once it shows. */
const containsText = (find: () => Element | null, text: string) =>
  waitFor(() => expect(norm(find()?.textContent)).toContain(norm(text)));
const next = () => screen.queryByTestId("next-simAssets");
const planCard = () => document.querySelector<HTMLElement>('[data-product="simAssets"]');
const invoiceItems = (locale: Locale) =>
  within(screen.getByRole("list", { name: t.invoices[locale] })).getAllByRole("listitem");

interface ClientView {
  trialEndsAt: string | null;
  subscriptions: Record<string, { tier: string }>;
  permissions: Record<string, { analysis: Record<string, boolean> }>;
}
interface ProductBillingView {
  product: string;
  state: string;
  period: string | null;
  subscription: { tier: string };
  next: { event: string; date: string } | null;
  scheduledChange: unknown;
}
interface InvoiceView {
  number: string;
  totalCents: number;
  vatCents: number;
  lines: { kind: string; tier: string; period: string; amountCents: number }[];
}
interface BillingView {
  products: ProductBillingView[];
  invoices: InvoiceView[];
  balances: { currency: string; cents: number }[];
}

let server: TabServer;

/** The API as the browser's signed-in person (the session cookie as a bearer, as the app sends it). */
function apiAs(browser: TabBrowser) {
  const call = async <T,>(method: string, path: string, body?: unknown): Promise<T> => {
    const token = browser.cookies.get("session");
    expect(token, "the browser's session cookie").toBeTruthy();
    const response = await server.market.app.request(`/api${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { "Content-Type": "application/json" }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    expect(response.ok, `${method} ${path}: ${response.status} ${text}`).toBe(true);
    return JSON.parse(text) as T;
  };
  return {
    call,
    client: () => call<ClientView>("GET", "/client"),
    billing: () => call<BillingView>("GET", "/billing"),
    product: async (product: string) =>
      (await call<BillingView>("GET", "/billing")).products.find((p) => p.product === product)!,
    /** Moves the account's billing clock forward (the sandbox's test clock). */
    moveClock: (days: number) => call("POST", "/billing/test-clock", { days }),
    /** A credit given by hand to the account balance (the sandbox's switch, docs/billing.md). */
    giveCredit: (cents: number) => call("POST", "/billing/test-credit", { cents, currency: "EUR" }),
  };
}

/** The emails the server sent to `to` whose subject starts with `subject`, oldest first. */
const emailsTo = (to: string, subject = "") =>
  server.sent.filter((m) => m.to === to && m.email.subject.startsWith(subject)).map((m) => m.email);

/**
 * Signs up a new person through the API and confirms the email with the link it was sent, in
 * `browser`, which ends signed in (what the walks test starts after the sign-up, which
 * tests/e2e/accounts-journey.spec.ts walks on the screens). Returns the email.
 */
async function signUp(browser: TabBrowser, locale: Locale, name: string, password: string) {
  const email = `clock-${locale}-${name.toLowerCase()}-${randomBytes(4).toString("hex")}@example.com`;
  const request = browserRequest(server, browser);
  const json = { "Content-Type": "application/json" };
  const registered = await request("/api/auth/register", {
    method: "POST",
    headers: json,
    body: JSON.stringify({
      name,
      surname: "Somerville",
      email,
      password,
      confirmPassword: password,
      countryId: "ES",
      newsletter: false,
      policies: true,
      language: locale,
      recaptchaToken: "the bot check lets it through",
    }),
  });
  expect(registered.status, await registered.text()).toBe(201);
  const link = new URL(server.linkInNewestEmail(email, t.confirmSubject[locale]));
  const confirmed = await request("/api/auth/confirm-email", {
    method: "PUT",
    headers: json,
    body: JSON.stringify({
      email: link.searchParams.get("email"),
      token: link.searchParams.get("token"),
    }),
  });
  const answer = await confirmed.text();
  expect(confirmed.ok, answer).toBe(true);
  expect(browser.cookies.get("session"), "signed in").toBeTruthy();
  // The page's own cookie, the session's expiry, as the confirm screen leaves it.
  writeSessionCookie({ expiry: (JSON.parse(answer) as { expiry: string }).expiry });
  return email;
}

/** Opens (reloads) the billing screen in `browser` and waits for its plans. */
async function openBilling(browser: TabBrowser, locale: Locale) {
  cleanup();
  await openServerTab(server, paths.billing[locale], browser);
  await screen.findByRole("heading", { level: 2, name: words.yourPlans[locale] });
}

/** Days from now to a date, and a little more (the billing job runs with the move). */
const daysPast = (date: number) => (date - Date.now()) / dayMs + 0.01;

/**
 * The sandbox's page at `path` as the browser loads it, in place of the app (plain HTML that works
 * without scripts; its styles left aside): the page's body, to be removed when the browser leaves.
 */
async function sandboxPage(browser: TabBrowser, path: string) {
  const answer = await browserRequest(server, browser)(path);
  expect(answer.status).toBe(200);
  const loaded = new DOMParser().parseFromString(await answer.text(), "text/html");
  const page = document.createElement("main");
  page.innerHTML = loaded.body.innerHTML;
  document.body.append(page);
  return page;
}

/**
 * Fills the sandbox's card form (any future expiry, any CVC) by its labels and pays with its
 * button, as a browser posts it; answers where the sandbox sends the browser back.
 */
async function payOnSandbox(
  browser: TabBrowser,
  path: string,
  locale: Locale,
  card: string,
  amount: string,
) {
  expect(path).toMatch(/^\/sandbox\/checkout\//);
  const page = await sandboxPage(browser, path);
  try {
    expect(norm(page.querySelector("p.amount")?.textContent)).toBe(norm(amount));
    const fill = (label: string, value: string) =>
      fireEvent.change(within(page).getByLabelText(label, { exact: true, selector: "input" }), {
        target: { value },
      });
    fill(t.cardNumber[locale], card);
    fill(t.expiry[locale], "12/39");
    fill(t.cvc[locale], "123");
    const pay = within(page).getByRole("button", { name: `${t.pay[locale]} ${amount}` });
    // The form as the browser posts it: its method, its action, its named fields.
    const form = pay.closest("form")!;
    expect(form.method).toBe("post");
    const fields = new URLSearchParams();
    for (const [name, value] of new FormData(form)) fields.append(name, String(value));
    const paid = await browserRequest(server, browser)(form.getAttribute("action")!, {
      method: "POST",
      body: fields,
    });
    expect(paid.status, await paid.text()).toBe(303);
    return paid.headers.get("location")!;
  } finally {
    page.remove();
  }
}

/**
 * Buys a hollytools plan through the API (a step the walk is not about): invoice details, a
 * checkout, the sandbox's card form posted, then the payment as the API says it.
 */
async function buyThroughApi(browser: TabBrowser, tier: string, period: string) {
  const api = apiAs(browser);
  await api.call("PUT", "/client/invoice-info", {
    name: "Mary Somerville",
    country: "ES",
    tin: "",
    city: "",
    address: "",
    postalCode: "",
    companyName: "",
    company: false,
  });
  const { payment } = await api.call<{ payment: { id: string; redirectUrl: string } }>(
    "POST",
    "/billing/checkout",
    {
      product: "simAssets",
      tier,
      period,
      currency: "EUR",
      idempotencyKey: randomBytes(16).toString("hex"),
    },
  );
  const paid = await browserRequest(server, browser)(payment.redirectUrl, {
    method: "POST",
    body: new URLSearchParams({ number: SUCCEEDS, expiry: "12/39", cvc: "123" }),
  });
  expect(paid.status).toBe(303);
  await waitFor(async () =>
    expect(
      (await api.call<{ status: string }>("GET", `/billing/payments/${payment.id}`)).status,
    ).toBe("succeeded"),
  );
}

/** Buys hollytools standard monthly through the confirm screen and the sandbox's page. */
async function buyStandardMonthly(browser: TabBrowser, locale: Locale, card: string) {
  const left: { to?: string } = {};
  vi.spyOn(leaveApp, "assign").mockImplementation((url) => {
    left.to = url;
  });
  const query = new URLSearchParams({
    product: "simAssets",
    tier: "standard",
    period: "monthly",
    currency: "EUR",
  });
  cleanup();
  await openServerTab(server, `${paths.confirm[locale]}?${query}`, browser);
  await hasText(() => screen.queryByRole("heading", { level: 1 }), t.confirmTitle[locale]);
  const price = money(STANDARD_MONTHLY, locale);
  await hasText(() => screen.queryByTestId("charge-now"), price);
  fireEvent.change(screen.getByLabelText(t.nameOnInvoice[locale], { selector: "input" }), {
    target: { value: "Mary Somerville" },
  });
  fireEvent.change(screen.getByLabelText(t.country[locale], { selector: "select" }), {
    target: { value: "ES" },
  });
  fireEvent.click(
    screen.getByRole("button", { name: `${t.pay[locale]} ${price} ${t.andContinue[locale]}` }),
  );
  await waitFor(() => expect(left.to).toBeDefined());
  // The browser leaves the app for the provider's page.
  cleanup();
  const sandbox = new URL(left.to!, "http://localhost");
  const back = new URL(
    await payOnSandbox(browser, `${sandbox.pathname}${sandbox.search}`, locale, card, price),
    "http://localhost",
  );
  expect(back.pathname).toBe(paths.paymentComplete[locale]);
  cleanup();
  const tab = await openServerTab(server, `${back.pathname}${back.search}`, browser);
  await hasText(() => screen.queryByRole("heading", { level: 1 }), t.paymentComplete[locale]);
  expect(tab.router.state.location.pathname).toBe(paths.paymentComplete[locale]);
}

beforeAll(async () => {
  server = await openTabServer("ht", {
    env: {
      // The sandbox's test clock and its credit by hand (docs/billing.md).
      SANDBOX_TEST_CLOCK: "true",
      // Every walk signs up from the one in-process address (no socket): no per-address limit.
      RATE_LIMIT_SIGNUPS_PER_HOUR: "10000",
    },
    captchaPasses: true,
  });
});
afterAll(() => server?.close());

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  sessionStorage.clear();
  for (const name of ["auth", "lang"])
    document.cookie = `${name}=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT`;
});

// Plans are sold on the ht edition only.
describe.each(["en", "es"] as const)("billing through time with the test clock (%s)", (locale) => {
  it(
    "renews at the period end: a new date, a second invoice and a receipt",
    async () => {
      const browser = newBrowser();
      const email = await signUp(browser, locale, "Mary", "Mechanism-of-Heavens-1831");
      const api = apiAs(browser);
      await buyStandardMonthly(browser, locale, SUCCEEDS);
      const bought = await api.product("simAssets");
      const end = Date.parse(bought.next!.date);

      await api.moveClock((end - Date.now()) / dayMs + 0.01);
      const renewed = await api.product("simAssets");
      expect(renewed.state).toBe("active");
      expect(Date.parse(renewed.next!.date)).toBeGreaterThan(Date.now());
      const billing = await api.billing();
      expect(billing.invoices.map((i) => i.totalCents)).toEqual([
        STANDARD_MONTHLY,
        STANDARD_MONTHLY,
      ]);

      await openBilling(browser, locale);
      await containsText(next, words.renewsOn[locale]);
      await waitFor(() => expect(invoiceItems(locale)).toHaveLength(2));
      await waitFor(() => expect(emailsTo(email, words.receipt[locale])).toHaveLength(2));
    },
    WALK_MS,
  );

  it(
    "retries a failed renewal on days 1, 3 and 7 with an email each, then ends the plan",
    async () => {
      const browser = newBrowser();
      const email = await signUp(browser, locale, "Ada", "Analytical-Engine-1843");
      const api = apiAs(browser);
      await buyStandardMonthly(browser, locale, DECLINES_RENEWALS);
      const end = Date.parse((await api.product("simAssets")).next!.date);

      const steps = [
        { days: (end - Date.now()) / dayMs + 0.01, state: "pastDue", failures: 1 },
        { days: 1, state: "pastDue", failures: 2 },
        { days: 2, state: "pastDue", failures: 3 },
        { days: 4, state: "free", failures: 4 },
      ];
      for (const step of steps) {
        await api.moveClock(step.days);
        expect((await api.product("simAssets")).state).toBe(step.state);
        const failed = emailsTo(email, words.failed[locale]);
        expect(failed).toHaveLength(step.failures);
        await openBilling(browser, locale);
        const card = within(planCard()!);
        if (step.state === "pastDue") {
          expect(card.getByText(words.paymentDue[locale], { exact: true })).toBeTruthy();
          await containsText(next, words.retry[locale]);
        } else {
          expect(card.getByText(words.free[locale], { exact: true })).toBeTruthy();
          // The newest failure's email (the fourth) says it was the last attempt.
          expect(failed.at(-1)!.text).toContain(words.lastAttempt[locale]);
        }
      }
      expect((await api.client()).permissions.simAssets!.analysis.var).toBe(false);
    },
    WALK_MS,
  );

  it(
    "warns three days before a trial ends, then the account is free again",
    async () => {
      const browser = newBrowser();
      const email = await signUp(browser, locale, "Sophie", "Elastic-Surfaces-1816");
      const api = apiAs(browser);
      const startedBefore = Date.now();
      await openServerTab(server, paths.choosePlan[locale], browser);
      fireEvent.click(await screen.findByRole("button", { name: t.tryFree[locale] }));
      await hasText(() => screen.queryByRole("status"), t.trialStarted[locale]);
      const started = await api.client();
      const end = Date.parse(started.trialEndsAt!);
      expect(end - startedBefore).toBeGreaterThanOrEqual(TRIAL_DAYS * dayMs - 1000);
      expect(end - Date.now()).toBeLessThanOrEqual(TRIAL_DAYS * dayMs);
      const trialEmails = (subject: string) => emailsTo(email, subject);

      // Just before the warning point nothing is sent; just after it, one warning.
      const before = TRIAL_DAYS - TRIAL_WARNING_DAYS - 0.1;
      await api.moveClock(before);
      expect(trialEmails(words.trialEnds[locale](""))).toHaveLength(0);
      await api.moveClock(0.11);
      // The account's dates moved back by the days moved: the trial now ends that much earlier.
      const endNow = end - Math.round((before + 0.11) * 86_400) * 1000;
      const endsOn = longDate(endNow, locale);
      const warned = trialEmails(words.trialEnds[locale](""));
      expect(warned.map((e) => e.subject)).toEqual([words.trialEnds[locale](endsOn)]);
      expect((await api.product("simAssets")).state).toBe("trial");
      await openBilling(browser, locale);
      expect(within(planCard()!).getByText(words.freeTrial[locale], { exact: true })).toBeTruthy();
      await hasText(next, words.endsOn[locale](endsOn));

      // Past the end: free again, on the screen, in the API and by email (once, and no new warning).
      await api.moveClock(TRIAL_WARNING_DAYS);
      await openBilling(browser, locale);
      expect(within(planCard()!).getByText(words.free[locale], { exact: true })).toBeTruthy();
      expect(next()).toBeNull();
      expect((await api.product("simAssets")).state).toBe("free");
      const client = await api.client();
      expect(client.subscriptions.simAssets!.tier).toBe("free");
      expect(client.permissions.simAssets!.analysis.componentRisk2).toBe(false);
      await waitFor(() => expect(trialEmails(words.planEnded[locale])).toHaveLength(1));
      expect(trialEmails(words.trialEnds[locale](""))).toHaveLength(1);
      expect((await api.billing()).invoices).toHaveLength(0);
    },
    WALK_MS,
  );

  it(
    "keeps a cancelled plan until its date, then ends it with no renewal charged",
    async () => {
      const browser = newBrowser();
      const email = await signUp(browser, locale, "Emmy", "Noether-Theorem-1918");
      const api = apiAs(browser);
      await buyThroughApi(browser, "standard", "monthly");
      const end = Date.parse((await api.product("simAssets")).next!.date);
      const until = longDate(end, locale);

      await openBilling(browser, locale);
      fireEvent.click(within(planCard()!).getByRole("button", { name: t.cancelPlan[locale] }));
      // Cancelling asks once more, with the date the plan is kept until.
      await containsText(
        () => screen.queryByTestId("cancel-question-simAssets"),
        words.keepUntil[locale](until),
      );
      expect((await api.product("simAssets")).state).toBe("active");
      fireEvent.click(within(planCard()!).getByRole("button", { name: t.confirmCancel[locale] }));
      await hasText(() => screen.queryByRole("status"), t.planCancelled[locale]);
      await waitFor(() =>
        expect(
          within(planCard()!).getByText(t.stateCancelled[locale], { exact: true }),
        ).toBeTruthy(),
      );
      await hasText(next, words.endsOn[locale](until));
      expect((await api.product("simAssets")).state).toBe("cancelled");

      await api.moveClock(daysPast(end));
      expect((await api.product("simAssets")).state).toBe("free");
      expect((await api.client()).permissions.simAssets!.analysis.var).toBe(false);
      // No renewal: the purchase's invoice is the only one.
      expect((await api.billing()).invoices.map((i) => i.totalCents)).toEqual([STANDARD_MONTHLY]);
      await openBilling(browser, locale);
      expect(within(planCard()!).getByText(words.free[locale], { exact: true })).toBeTruthy();
      await waitFor(() => expect(invoiceItems(locale)).toHaveLength(1));
      expect(emailsTo(email, words.planEnded[locale])).toHaveLength(1);
      expect(emailsTo(email, words.receipt[locale])).toHaveLength(1);
    },
    WALK_MS,
  );

  it(
    "applies a scheduled downgrade at the period end and charges the standard price",
    async () => {
      const browser = newBrowser();
      await signUp(browser, locale, "Caroline", "Comet-Hunter-1786");
      const api = apiAs(browser);
      await buyThroughApi(browser, "advanced", "monthly");
      expect((await api.billing()).invoices.map((i) => i.totalCents)).toEqual([ADVANCED_MONTHLY]);
      const end = Date.parse((await api.product("simAssets")).next!.date);
      const at = longDate(end, locale);

      const query = new URLSearchParams({
        product: "simAssets",
        tier: "standard",
        period: "monthly",
        currency: "EUR",
      });
      await openServerTab(server, `${paths.confirm[locale]}?${query}`, browser);
      await hasText(() => screen.queryByTestId("change-kind"), t.isDowngrade[locale]);
      const whatHappens = norm(words.whatHappens[locale](money(STANDARD_MONTHLY, locale)));
      expect(
        screen.getByText((_, el) => norm(el?.textContent).includes(whatHappens), {
          selector: "p",
        }),
      ).toBeTruthy();
      fireEvent.click(screen.getByRole("button", { name: t.scheduleChange[locale] }));
      await hasText(() => screen.queryByRole("status"), t.changeScheduled[locale]);
      await openBilling(browser, locale);
      await containsText(planCard, `${t.scheduled[locale]} ${at}`);
      await hasText(next, words.changesOn[locale](at));

      await api.moveClock(daysPast(end));
      const product = await api.product("simAssets");
      expect([product.state, product.subscription.tier, product.period]).toEqual([
        "active",
        "standard",
        "monthly",
      ]);
      expect(product.scheduledChange).toBeNull();
      // The renewal charged the standard price, for the standard plan, on its own invoice.
      const { invoices } = await api.billing();
      expect(invoices.map((i) => i.totalCents)).toEqual([STANDARD_MONTHLY, ADVANCED_MONTHLY]);
      expect(invoices[0]!.vatCents).toBe(vatOf(STANDARD_MONTHLY));
      expect(invoices[0]!.lines.map((l) => [l.kind, l.tier, l.period, l.amountCents])).toEqual([
        ["plan", "standard", "monthly", STANDARD_MONTHLY],
      ]);
      await openBilling(browser, locale);
      const card = within(planCard()!);
      expect(card.getByText(t.standard[locale], { exact: true })).toBeTruthy();
      expect(card.getByText(t.stateActive[locale], { exact: true })).toBeTruthy();
      await hasText(
        next,
        words.renews[locale](longDate(product.next!.date, locale), money(STANDARD_MONTHLY, locale)),
      );
      await waitFor(() => expect(invoiceItems(locale)).toHaveLength(2));
      expect(norm(invoiceItems(locale)[0]!.textContent)).toContain(
        norm(money(STANDARD_MONTHLY, locale)),
      );
      expect((await api.client()).permissions.simAssets!.analysis.componentRisk2).toBe(false);
    },
    WALK_MS,
  );

  it(
    "uses the account balance before the card on the next renewals, and says so",
    async () => {
      const browser = newBrowser();
      await signUp(browser, locale, "Hertha", "Ayrton-Ripples-1901");
      const api = apiAs(browser);
      await buyThroughApi(browser, "standard", "monthly");
      const CREDIT = 1500;
      await api.giveCredit(CREDIT);
      const balance = () => screen.queryByTestId("balance");
      const renewsOn = async () => longDate((await api.product("simAssets")).next!.date, locale);
      const price = money(STANDARD_MONTHLY, locale);

      // The balance is used before the card (docs/billing.md): the first renewal takes it all.
      const fromBalance1 = Math.min(CREDIT, STANDARD_MONTHLY);
      const card1 = STANDARD_MONTHLY - fromBalance1;
      const left1 = CREDIT - fromBalance1;
      expect(card1).toBe(0);
      await openBilling(browser, locale);
      await containsText(balance, words.onAccount[locale](money(CREDIT, locale)));
      await hasText(next, words.renewsFromBalance[locale](await renewsOn(), price));

      let end = Date.parse((await api.product("simAssets")).next!.date);
      await api.moveClock(daysPast(end));
      let view = await api.billing();
      expect(view.invoices[0]!.totalCents).toBe(card1);
      expect(view.invoices[0]!.lines.map((l) => [l.kind, l.amountCents])).toEqual([
        ["plan", STANDARD_MONTHLY],
        ["balanceUsed", -fromBalance1],
      ]);
      expect(view.balances).toEqual([{ currency: "EUR", cents: left1 }]);
      // The next renewal: what is left of the balance, the rest on the card.
      const fromBalance2 = Math.min(left1, STANDARD_MONTHLY);
      const card2 = STANDARD_MONTHLY - fromBalance2;
      await openBilling(browser, locale);
      await containsText(balance, words.onAccount[locale](money(left1, locale)));
      await hasText(
        next,
        words.renewsPartly[locale](
          await renewsOn(),
          price,
          money(fromBalance2, locale),
          money(card2, locale),
        ),
      );

      end = Date.parse((await api.product("simAssets")).next!.date);
      await api.moveClock(daysPast(end));
      view = await api.billing();
      expect(view.invoices.map((i) => i.totalCents)).toEqual([card2, card1, STANDARD_MONTHLY]);
      expect(view.invoices[0]!.lines.map((l) => [l.kind, l.amountCents])).toEqual([
        ["plan", STANDARD_MONTHLY],
        ["balanceUsed", -fromBalance2],
      ]);
      expect(view.balances).toEqual([]);
      await openBilling(browser, locale);
      await hasText(next, words.renews[locale](await renewsOn(), price));
      expect(balance()).toBeNull();
      await waitFor(() => expect(invoiceItems(locale).length).toBeGreaterThan(0));
      expect(norm(invoiceItems(locale)[0]!.textContent)).toContain(norm(money(card2, locale)));
    },
    WALK_MS,
  );
});
