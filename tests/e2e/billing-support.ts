// Helpers of the billing end-to-end tests (tests/e2e/billing.spec.ts): paths and texts of the
// billing screens and of the sandbox provider's pages, a new account signed up through the
// screens, the API read with the session's bearer token, the sandbox's card form, and the
// proration formula of docs/billing.md computed independently of the product's code.
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { APIRequestContext, Page } from "@playwright/test";
import { accountPaths, accountTexts, linkInNewestEmail, signUpByApi } from "./accounts-support.ts";
import { brandNames, expect, type Edition, type Locale } from "./fixtures.ts";

export const DEMO_PASSWORD = "Demo-portfolio-2026";

export const billingPaths = {
  choosePlan: { en: "/en/choose-your-plan", es: "/es/elige-tu-plan" },
  confirm: { en: "/en/subscribe/confirm", es: "/es/suscribete/confirmar" },
  paymentComplete: { en: "/en/payment-complete", es: "/es/pago-realizado" },
  billing: {
    en: "/en/my-account/billing-subscription",
    es: "/es/mi-cuenta/facturacion-suscripcion",
  },
  q1: { en: "/en/create-portfolio/q1", es: "/es/crear-cartera/p1" },
  q2: { en: "/en/create-portfolio/q2", es: "/es/crear-cartera/p2" },
  q3: { en: "/en/create-portfolio/q3", es: "/es/crear-cartera/p3" },
  summary: { en: "/en/create-portfolio/summary", es: "/es/crear-cartera/resumen" },
  fullAnalysis: { en: "/en/analysis/full-analysis", es: "/es/analisis/analisis-completo" },
} as const satisfies Record<string, Record<Locale, string>>;

/** Texts of the billing screens: English from the screens, Spanish from locales/es/messages.po. */
export const billingTexts = {
  choosePlan: { en: "Choose your plan", es: "Elige tu plan" },
  monthly: { en: "Monthly", es: "Mensual" },
  annual: { en: "Annual", es: "Anual" },
  standard: { en: "Standard", es: "Estándar" },
  advanced: { en: "Advanced", es: "Avanzado" },
  tryFree: { en: "Try it free for 14 days", es: "Pruébalo gratis 14 días" },
  trialStarted: {
    en: "Your 14-day free trial of hollytools Stocks Advanced has started.",
    es: "Ha empezado tu prueba gratuita de 14 días de hollytools Acciones Avanzado.",
  },
  confirmTitle: { en: "Confirm your subscription", es: "Confirma tu suscripción" },
  startsToday: {
    en: "This plan starts today, when you pay.",
    es: "Este plan empieza hoy, cuando pagues.",
  },
  isUpgrade: {
    en: "This is an upgrade: it applies at once, prorated for the rest of your period.",
    es: "Es un cambio a un plan superior: se aplica en el acto, prorrateado por lo que queda de tu periodo.",
  },
  isDowngrade: {
    en: "This is a downgrade: it takes effect at the end of your current period.",
    es: "Es un cambio a un plan inferior: se aplica al final de tu periodo actual.",
  },
  credit: {
    en: "Credit for the unused time of your current plan",
    es: "Abono por el tiempo no usado de tu plan actual",
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
  paymentFailed: { en: "The payment did not go through", es: "El pago no se ha completado" },
  declined: {
    en: "The card was declined. Try another card.",
    es: "La tarjeta ha sido rechazada. Prueba con otra tarjeta.",
  },
  nothingCharged: {
    en: "Nothing was charged. You can try again with the same plan or cancel.",
    es: "No se ha cobrado nada. Puedes intentarlo de nuevo con el mismo plan o cancelar.",
  },
  tryAgain: { en: "Try again", es: "Volver a intentarlo" },
  yourInvoiceIs: { en: "Your invoice is number", es: "Tu factura es la número" },
  nowUnlocked: { en: "Now unlocked", es: "Ya desbloqueado" },
  billingTitle: { en: "Billing and subscription", es: "Facturación y suscripción" },
  invoices: { en: "Invoices", es: "Facturas" },
  downloadInvoice: { en: "Download invoice", es: "Descargar la factura" },
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
  reactivate: { en: "Reactivate", es: "Reactivar" },
  planReactivated: {
    en: "Your plan is active again and will renew.",
    es: "Tu plan vuelve a estar activo y se renovará.",
  },
  stateActive: { en: "Active", es: "Activo" },
  stateCancelled: { en: "Cancelled", es: "Cancelado" },
  scheduled: {
    en: "Scheduled: the Standard plan (monthly) from",
    es: "Programado: el plan Estándar (mensual) desde el",
  },
  includedInAdvanced: { en: "Included in the Advanced plan.", es: "Incluido en el plan Avanzado." },
  // The sandbox provider's pages (src/server/billing/texts.ts).
  cardNumber: { en: "Card number", es: "Número de tarjeta" },
  expiry: { en: "Expiry (MM/YY)", es: "Caducidad (MM/AA)" },
  cvc: { en: "CVC", es: "CVC" },
  approve: { en: "Approve", es: "Aprobar" },
  challengeTitle: { en: "Confirm this payment", es: "Confirma este pago" },
} as const satisfies Record<string, Record<Locale, string>>;

export const testCards = {
  succeeds: "4242 4242 4242 4242",
  declined: "4000 0000 0000 0002",
  authenticate: "4000 0027 6000 3184",
} as const;

const intlLocale: Record<Locale, string> = { en: "en-US", es: "es-ES" };

/** Money in cents as the screens write it (Intl in the page's locale). */
export const money = (cents: number, locale: Locale, currency = "EUR") =>
  new Intl.NumberFormat(intlLocale[locale], { style: "currency", currency }).format(cents / 100);

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A URL whose path is `pathname` (any query). */
export const atPath = (pathname: string) => new RegExp(`^[^?]*${escapeRegExp(pathname)}(\\?|$)`);

/**
 * docs/billing.md, "Proration", for a change to another period length: with r = remaining seconds
 * / seconds of the current period (elapsed time, PRODUCT.md), charge = new price − round(old price × r).
 */
export function prorateToAnotherPeriod(
  oldPriceCents: number,
  newPriceCents: number,
  periodStart: string,
  periodEnd: string,
  today: Date,
): number {
  const seconds = (from: number, to: number) => Math.max(0, Math.floor((to - from) / 1000));
  const end = Date.parse(periodEnd);
  const periodSeconds = Math.max(1, seconds(Date.parse(periodStart), end));
  const remaining = Math.min(periodSeconds, seconds(today.getTime(), end));
  return newPriceCents - Math.round((oldPriceCents * remaining) / periodSeconds);
}

export interface ClientView {
  kind: string;
  trialEndsAt: string | null;
  subscriptions: Record<string, { tier: string; cancelled: boolean; active: boolean }>;
  permissions: Record<
    string,
    {
      analysis: Record<string, boolean>;
      construction: Record<string, unknown>;
      competition: Record<string, boolean>;
    }
  >;
}

export interface ProductBillingView {
  product: string;
  state: string;
  period: string | null;
  currency: string | null;
  periodStart: string | null;
  subscription: { tier: string; cancelled: boolean };
  next: { event: string; date: string; amountCents: number | null } | null;
  scheduledChange: { tier: string; period: string; effectiveAt: string } | null;
}

export interface BillingView {
  products: ProductBillingView[];
  invoices: { number: string; totalCents: number; currency: string; issuedAt: string }[];
}

/** The API as the signed-in person (Authorization: Bearer, as the app sends it). */
export function apiAs(request: APIRequestContext, token: string) {
  const headers = { Authorization: `Bearer ${token}` };
  const json = async <T>(response: Awaited<ReturnType<APIRequestContext["get"]>>) => {
    expect(response.ok(), `${response.url()}: ${response.status()} ${await response.text()}`).toBe(
      true,
    );
    return (await response.json()) as T;
  };
  return {
    headers,
    client: async () => json<ClientView>(await request.get("/api/client", { headers })),
    billing: async () => json<BillingView>(await request.get("/api/billing", { headers })),
    product: async (product: string) =>
      (await json<BillingView>(await request.get("/api/billing", { headers }))).products.find(
        (p) => p.product === product,
      )!,
    quote: async (choice: { product: string; tier: string; period: string; currency: string }) =>
      json<{ chargeNowCents: number; creditCents: number; change: string }>(
        await request.post("/api/billing/quote", { headers, data: choice }),
      ),
  };
}

/**
 * Signs up a new person and ends signed in, with the email confirmed. Through the screens (with the
 * proof-of-work check, following the confirmation link from the outbox), or, `byApi`, through the
 * same calls (`signUpByApi`) for the walks through time: what they test starts after the sign-up,
 * which accounts-journey.spec.ts and the purchases of billing.spec.ts walk on the screens. Returns
 * the email.
 */
export async function signUpNewPerson(
  page: Page,
  locale: Locale,
  edition: Edition,
  name: string,
  password: string,
  { byApi = false }: { byApi?: boolean } = {},
): Promise<string> {
  const t = accountTexts;
  const email = `billing-${edition}-${locale}-${Date.now()}@example.com`;
  const subject = `${t.confirmSubject[locale]} ${brandNames[edition]}`;
  if (byApi) {
    await signUpByApi(page, { name, email, password, locale, subject });
    return email;
  }
  await page.goto(accountPaths.signUp[locale]);
  await page.getByLabel(t.name[locale], { exact: true }).fill(name);
  await page.getByLabel(t.surname[locale], { exact: true }).fill("Somerville");
  await page.getByLabel(t.email[locale], { exact: true }).fill(email);
  await page.getByLabel(t.password[locale], { exact: true }).fill(password);
  await page.getByLabel(t.confirmPassword[locale], { exact: true }).fill(password);
  await page.getByLabel(t.acceptPolicy[locale]).check();
  await expect(page.getByText(t.verified[locale], { exact: true })).toBeVisible();
  await page.getByRole("button", { name: t.createMyAccount[locale] }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(t.checkYourEmail[locale]);
  await page.goto(await linkInNewestEmail(page.request, email, subject));
  await expect(page.getByRole("status")).toHaveText(t.emailConfirmed[locale]);
  return email;
}

/** Fills the sandbox's card form (any future expiry, any CVC) and pays. */
export async function payOnSandbox(page: Page, locale: Locale, card: string, amount: string) {
  const t = billingTexts;
  await expect(page).toHaveURL(/\/sandbox\/checkout\//);
  await expect(page.locator("p.amount")).toHaveText(amount);
  await page.getByLabel(t.cardNumber[locale], { exact: true }).fill(card);
  await page.getByLabel(t.expiry[locale], { exact: true }).fill("12/39");
  await page.getByLabel(t.cvc[locale], { exact: true }).fill("123");
  await page.getByRole("button", { name: `${t.pay[locale]} ${amount}`, exact: true }).click();
}

/**
 * Screenshots for looking at the pages by eye, at 1280 px and 390 px, when E2E_SHOTS_DIR is set
 * (outside the repository); nothing otherwise.
 */
export async function shots(page: Page, name: string): Promise<void> {
  const dir = process.env.E2E_SHOTS_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  const size = page.viewportSize() ?? { width: 1280, height: 720 };
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
    await page.screenshot({ path: path.join(dir, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize(size);
}

export { bearerOf } from "./accounts-support.ts";
