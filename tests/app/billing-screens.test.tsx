// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { waitFor as waitForActor } from "xstate";
import {
  activePlan,
  demoInvoiceInfo,
  demoPayment,
  demoProductBilling,
  demoQuote,
  downgradeQuote,
} from "../../machines/subscription.fixtures.ts";
import { leaveApp } from "../../src/features/billing/use-subscription.ts";
import type { Client } from "../../src/contract/accounts.ts";
import {
  annualSaving,
  paidTiersOf,
  periods,
  planIdFor,
  planPrices,
  type BillingCurrency,
  type BillingOverview,
  type Payment,
  type PlanCatalog,
  type Quote,
} from "../../src/contract/billing.ts";
import { products } from "../../src/contract/common.ts";
import { defaultPermissions, permissionsFor } from "../../src/contract/permissions.ts";
import { memberFacts, renderApp, testServices } from "../support/render-app.tsx";

const free = {
  id: null,
  active: false,
  expiryDate: null,
  subscriptionText: "free",
  subscriptionTypeId: null,
  tier: "free",
  cancelled: false,
} as const;

const client: Client = {
  id: 7,
  name: "Ada",
  surname: "Lovelace",
  email: "ada@example.test",
  phone: null,
  telephone: null,
  countryId: "ES",
  newsletter: false,
  language: "en",
  level: 1,
  birthDate: null,
  tin: null,
  postalCode: null,
  policies: {
    acceptedVersion: "2026-01",
    acceptedAt: null,
    currentVersion: "2026-01",
    accepted: true,
  },
  city: null,
  address: null,
  emailConfirmed: true,
  subscriptions: {
    simAssets: { ...free, id: 1, active: true, subscriptionTypeId: 5, tier: "standard" },
    simMonk: free,
    simIndices: free,
  },
  profession: null,
  permissions: {
    simAssets: permissionsFor("simAssets", "standard"),
    simMonk: defaultPermissions,
    simIndices: defaultPermissions,
  },
  kind: "standard",
  trialEndsAt: null,
};

function catalog(currency: BillingCurrency): PlanCatalog {
  return {
    currency,
    vatRate: 0.21,
    trialDays: 14,
    plans: products.flatMap((product) =>
      paidTiersOf(product).flatMap((tier) =>
        periods.map((period) => ({
          product,
          tier,
          period,
          currency,
          planId: planIdFor(product, currency),
          priceCents: planPrices[product][tier]![period],
          savingCents: period === "annual" ? annualSaving(product, tier) : 0,
        })),
      ),
    ),
  };
}

const overview: BillingOverview = {
  products: [
    activePlan("simAssets", "standard"),
    demoProductBilling("simMonk"),
    demoProductBilling("simIndices"),
  ],
  balances: [],
  invoices: [
    {
      number: "2026-000001",
      issuedAt: "2026-11-21T10:00:00.000Z",
      currency: "EUR",
      lines: [
        {
          kind: "plan",
          product: "simAssets",
          tier: "standard",
          period: "monthly",
          from: "2026-11-21T10:00:00.000Z",
          to: "2026-12-21T10:00:00.000Z",
          amountCents: 990,
        },
      ],
      totalCents: 990,
      vatCents: 172,
    },
  ],
};

type Call = {
  path: string;
  method: string;
  body: unknown;
  headers: Headers;
  query: URLSearchParams;
};

/** A fake billing API over the real HTTP client; `payments` are answered in turn. */
function fakeApi(
  options: {
    quote?: Quote;
    payments?: Payment[];
    overview?: BillingOverview;
    /** The overviews answered after the first (e.g. the plan bought meanwhile in another tab). */
    laterOverviews?: BillingOverview[];
    /** The checkout's refusal, if any. */
    checkoutRefusal?: { status: number; msgCode: string };
  } = {},
) {
  let overviewsAnswered = 0;
  const calls: Call[] = [];
  const payments = [...(options.payments ?? [demoPayment({ status: "succeeded" })])];
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(String(input), init);
    const url = new URL(request.url);
    const text = await request.clone().text();
    calls.push({
      path: url.pathname,
      method: request.method,
      body: text ? JSON.parse(text) : null,
      headers: request.headers,
      query: url.searchParams,
    });
    const json = (status: number, body: unknown) =>
      new Response(JSON.stringify(body), {
        status,
        headers: { "Content-Type": "application/json" },
      });
    const route = `${request.method} ${url.pathname}`;
    if (route === "GET /api/client") return json(200, client);
    if (route === "GET /api/billing") {
      const later = options.laterOverviews ?? [];
      const answer =
        overviewsAnswered === 0 || later.length === 0
          ? (options.overview ?? overview)
          : later[Math.min(overviewsAnswered - 1, later.length - 1)]!;
      overviewsAnswered++;
      return json(200, answer);
    }
    if (route === "GET /api/client/invoice-info") return json(200, demoInvoiceInfo);
    if (route === "PUT /api/client/invoice-info") return json(200, JSON.parse(text));
    if (route === "GET /api/billing/plans")
      return json(200, catalog((url.searchParams.get("currency") as BillingCurrency) ?? "EUR"));
    if (route === "POST /api/billing/quote") return json(200, options.quote ?? demoQuote());
    if (route === "POST /api/billing/checkout")
      return options.checkoutRefusal
        ? json(options.checkoutRefusal.status, { msgCode: options.checkoutRefusal.msgCode })
        : json(200, { payment: demoPayment(), quote: demoQuote() });
    if (url.pathname.startsWith("/api/billing/payments/"))
      return json(200, payments.length > 1 ? payments.shift() : payments[0]);
    if (route === "POST /api/billing/schedule") return json(200, overview);
    if (route === "POST /api/billing/trial") return json(200, overview);
    if (route === "POST /api/cancel-subscription") return json(200, overview);
    if (url.pathname.endsWith("/pdf"))
      return new Response("%PDF-1.7", {
        status: 200,
        headers: { "Content-Type": "application/pdf" },
      });
    return json(404, { msgCode: "NOT_FOUND" });
  });
  return { fetch: fetch as unknown as typeof globalThis.fetch, calls };
}

/** Text as a reader sees it: Intl puts no-break spaces in "10,00 €". */
const plain = (text: string | null | undefined) => (text ?? "").replace(/\u00a0|\u202f/g, " ");

const expiry = new Date(Date.now() + 86_400_000).toISOString();

/** Services whose session is signed in as `client`. */
async function signedIn(api: ReturnType<typeof fakeApi>) {
  const services = testServices("ht", api.fetch);
  await waitForActor(services.session!, (s) => s.matches("signedOut"), { timeout: 2000 });
  services.session!.send({
    type: "session.started",
    session: { expiry },
  });
  await waitForActor(services.session!, (s) => s.matches("signedIn"), { timeout: 2000 });
  return services;
}

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  document.cookie = "auth=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT";
  document.cookie = "lang=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT";
  sessionStorage.clear();
});

describe("choose-your-plan", () => {
  it.each([
    {
      path: "/en/choose-your-plan",
      heading: "Plans of hollytools Stocks",
      annual: "€99.00 a year",
      saving: "You save €19.80 against twelve monthly payments.",
      monthly: "Monthly",
      monthlyPrice: "€9.90 a month",
      row: "Saved portfolios",
      tiers: ["Free", "Standard", "Advanced"],
      signIn: "Sign in to choose a plan",
    },
    {
      path: "/es/elige-tu-plan",
      heading: "Planes de hollytools Acciones",
      annual: "99,00 € al año",
      saving: "Ahorras 19,80 € frente a doce pagos mensuales.",
      monthly: "Mensual",
      monthlyPrice: "9,90 € al mes",
      row: "Carteras guardadas",
      tiers: ["Gratis", "Estándar", "Avanzado"],
      signIn: "Accede para elegir un plan",
    },
  ])("shows a guest the plans, prices and what each unlocks at $path", async (c) => {
    const api = fakeApi();
    await renderApp(c.path, { services: testServices("ht", api.fetch) });
    expect(await screen.findByRole("heading", { name: c.heading })).toBeTruthy();
    expect(await screen.findByText(c.annual)).toBeTruthy();
    expect(screen.getByText(c.saving)).toBeTruthy();
    // The comparison becomes a card per feature on a phone: each plan's value labelled by its plan.
    const row = screen.getByRole("rowheader", { name: c.row }).closest("tr")!;
    expect(row.closest("table")!.classList.contains("card-table")).toBe(true);
    expect(
      within(row)
        .getAllByRole("cell")
        .map((cell) => cell.dataset.label),
    ).toEqual(c.tiers);
    expect(screen.getByRole("link", { name: c.signIn })).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: c.monthly }));
    expect(screen.getByText(c.monthlyPrice)).toBeTruthy();
    expect(api.calls.some((x) => x.path === "/api/billing")).toBe(false);
  });

  it("switches product and currency, marks the current plan and links to confirm", async () => {
    const api = fakeApi();
    const services = await signedIn(api);
    await renderApp("/en/choose-your-plan?product=simAssets&tier=advanced", {
      services,
      facts: memberFacts,
    });
    await waitFor(() =>
      expect(screen.getByText("Your plan", { selector: ".badge" }).parentElement?.textContent).toBe(
        "Standard Your plan",
      ),
    );
    // The client holds standard monthly; annual is shown first, so the change to annual is offered.
    expect(screen.getByRole("link", { name: "Change to Standard (Annual)" })).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Monthly" }));
    expect(screen.queryByRole("link", { name: /Change to Standard/ })).toBeNull();
    const choose = await screen.findByRole("link", { name: "Choose Advanced" });
    expect(choose.getAttribute("href")).toBe(
      "/en/subscribe/confirm?product=simAssets&tier=advanced&period=monthly&currency=EUR",
    );
    fireEvent.click(screen.getByRole("button", { name: "USD ($)" }));
    expect(await screen.findByText("$19.90 a month")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "hollytools Index funds" }));
    expect(screen.getByRole("heading", { name: "Plans of hollytools Index funds" })).toBeTruthy();
    expect(screen.queryByRole("link", { name: "Choose Standard" })).toBeNull();
  });

  it("starts the trial of a free product (ht)", async () => {
    const api = fakeApi();
    const services = await signedIn(api);
    await renderApp("/en/choose-your-plan?stc=simIndices", { services, facts: memberFacts });
    fireEvent.click(await screen.findByRole("button", { name: "Try it free for 14 days" }));
    await screen.findByText(
      "Your 14-day free trial of hollytools Index funds Advanced has started.",
    );
    const trial = api.calls.find((x) => x.path === "/api/billing/trial");
    expect(trial?.body).toEqual({ product: "simIndices" });
  });
});

describe("subscribe/confirm", () => {
  it.each([
    {
      path: "/en/subscribe/confirm?product=simAssets&tier=advanced&period=monthly&currency=EUR",
      charge: "€10.00",
      credit: "Credit for the unused time of your current plan",
      next: "From the next renewal: €19.90 (monthly), charged on December 21, 2026.",
      pay: /^Pay €10\.00 and continue$/,
      name: "Name on the invoice",
    },
    {
      path: "/es/suscribete/confirmar?product=simAssets&tier=advanced&period=monthly&currency=EUR",
      charge: "10,00 €",
      credit: "Abono por el tiempo no usado de tu plan actual",
      next: "Desde la próxima renovación: 19,90 € (mensual), que se cobra el 21 de diciembre de 2026.",
      pay: /^Pagar 10,00\s€ y continuar$/,
      name: "Nombre en la factura",
    },
  ])("shows the quote and pays an upgrade at $path", async (c) => {
    const assign = vi.spyOn(leaveApp, "assign").mockImplementation(() => {});
    const api = fakeApi();
    const services = await signedIn(api);
    await renderApp(c.path, { services, facts: memberFacts });
    expect(plain((await screen.findByTestId("charge-now")).textContent)).toBe(c.charge);
    expect(screen.getByText(c.credit)).toBeTruthy();
    expect(plain(screen.getByTestId("next-charge").textContent)).toBe(c.next);
    expect((screen.getByLabelText(c.name) as HTMLInputElement).value).toBe("Ada Lovelace");

    fireEvent.change(screen.getByLabelText(c.name), { target: { value: "  Ada King " } });
    fireEvent.click(screen.getByRole("button", { name: c.pay }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith(demoPayment().redirectUrl));

    const put = api.calls.find((x) => x.method === "PUT" && x.path === "/api/client/invoice-info");
    expect(put?.body).toMatchObject({ name: "Ada King", country: "ES" });
    const checkout = api.calls.filter((x) => x.path === "/api/billing/checkout");
    expect(checkout).toHaveLength(1);
    const body = checkout[0]!.body as { idempotencyKey: string };
    expect(body).toMatchObject({ product: "simAssets", tier: "advanced", period: "monthly" });
    expect(checkout[0]!.headers.get("idempotency-key")).toBe(body.idempotencyKey);
    expect(api.calls.findIndex((x) => x === put)).toBeLessThan(api.calls.indexOf(checkout[0]!));
  });

  it.each([
    {
      path: "/en/subscribe/confirm?product=simAssets&tier=advanced&period=monthly&currency=EUR",
      pay: /^Pay €10\.00 and continue$/,
      held: "You already have the hollytools Stocks Advanced plan (monthly), until December 21, 2026. Nothing more is charged here.",
      retry: "Try again",
    },
    {
      path: "/es/suscribete/confirmar?product=simAssets&tier=advanced&period=monthly&currency=EUR",
      pay: /^Pagar 10,00\s€ y continuar$/,
      held: "Ya tienes el plan Avanzado de hollytools Acciones (mensual), hasta el 21 de diciembre de 2026. Aquí no se cobra nada más.",
      retry: "Volver a intentarlo",
    },
  ])(
    "says what the person already has, with nothing to retry, on a stale confirm screen at $path",
    async (c) => {
      // The plan was bought in another tab while this confirm screen stayed open.
      const bought: BillingOverview = {
        ...overview,
        products: [activePlan("simAssets", "advanced"), ...overview.products.slice(1)],
      };
      const api = fakeApi({
        checkoutRefusal: { status: 409, msgCode: "PLAN_CURRENT" },
        laterOverviews: [bought],
      });
      const services = await signedIn(api);
      await renderApp(c.path, { services, facts: memberFacts });
      fireEvent.click(await screen.findByRole("button", { name: c.pay }));
      expect(plain((await screen.findByTestId("current-plan")).textContent)).toBe(c.held);
      expect(screen.queryByTestId("charge-now")).toBeNull();
      expect(screen.queryByRole("button", { name: c.retry })).toBeNull();
    },
  );

  it("asks for the invoice info before paying", async () => {
    const api = fakeApi();
    const services = await signedIn(api);
    await renderApp(
      "/en/subscribe/confirm?product=simAssets&tier=advanced&period=monthly&currency=EUR",
      { services, facts: memberFacts },
    );
    fireEvent.change(await screen.findByLabelText("Name on the invoice"), {
      target: { value: "" },
    });
    fireEvent.click(screen.getByRole("button", { name: "Pay €10.00 and continue" }));
    expect((await screen.findByRole("alert")).textContent).toContain(
      "Fill in who the invoice is for",
    );
    expect(screen.getByText("Enter the name the invoice is for.")).toBeTruthy();
    expect(api.calls.some((x) => x.path === "/api/billing/checkout")).toBe(false);
  });

  it("explains a downgrade, warns about saved portfolios over the limit and schedules it", async () => {
    const api = fakeApi({
      quote: downgradeQuote,
      overview: {
        ...overview,
        products: [activePlan("simAssets", "advanced", { period: "annual" })],
      },
    });
    const services = await signedIn(api);
    await renderApp(
      "/es/suscribete/confirmar?product=simAssets&tier=standard&period=monthly&currency=EUR",
      { services, facts: memberFacts },
    );
    const warning = await screen.findByTestId("over-limit");
    expect(warning.textContent).toContain(
      "Tienes 8 carteras guardadas y el plan Estándar permite 5",
    );
    expect(warning.textContent).toContain("No se borra nada");
    fireEvent.click(screen.getByRole("button", { name: "Programar el cambio" }));
    await screen.findByText("Tu cambio está programado para el final de tu periodo actual.");
    const schedule = api.calls.find((x) => x.path === "/api/billing/schedule");
    expect(schedule?.body).toEqual({ product: "simAssets", tier: "standard", period: "monthly" });
    expect(api.calls.some((x) => x.path === "/api/billing/checkout")).toBe(false);
  });

  it("explains an invalid plan and links back", async () => {
    const api = fakeApi();
    const services = await signedIn(api);
    await renderApp(
      "/en/subscribe/confirm?product=simIndices&tier=standard&period=monthly&currency=EUR",
      { services, facts: memberFacts },
    );
    expect((await screen.findByRole("alert")).textContent).toBe(
      "That plan does not exist for this product.",
    );
    expect(screen.getByRole("link", { name: "Back to the plans" })).toBeTruthy();
    expect(api.calls.some((x) => x.path === "/api/billing/quote")).toBe(false);
  });
});

describe("payment-complete", () => {
  it.each([
    {
      path: "/en/payment-complete?payment=pay_0001",
      title: "Payment complete",
      unlocked: "Order by best risk-return",
      invoice: "2026-000002",
    },
    {
      path: "/es/pago-realizado?payment=pay_0001",
      title: "Pago realizado",
      unlocked: "Ordenar por mejor rentabilidad-riesgo",
      invoice: "2026-000002",
    },
  ])("polls until paid, then lists what is unlocked at $path", async (c) => {
    const api = fakeApi({
      payments: [
        demoPayment(),
        demoPayment({ status: "succeeded", redirectUrl: null, invoiceNumber: "2026-000002" }),
      ],
    });
    sessionStorage.setItem("payment-previous-tier", JSON.stringify({ pay_0001: "standard" }));
    const services = await signedIn(api);
    await renderApp(c.path, { services, facts: memberFacts });
    const list = await screen.findByTestId("unlocked", {}, { timeout: 3000 });
    expect(within(list).getByRole("link", { name: c.unlocked })).toBeTruthy();
    // Standard already had saving: it is not listed as new.
    expect(list.textContent).not.toMatch(/^Save portfolios$/m);
    expect(screen.getByTestId("invoice-number").textContent).toContain(c.invoice);
    // The session's client is reloaded so that the new permissions apply at once.
    await waitFor(() =>
      expect(api.calls.filter((x) => x.path === "/api/client").length).toBeGreaterThan(1),
    );
  });

  it.each([
    ["card_declined", "The card was declined. Try another card."],
    ["insufficient_funds", "The card has insufficient funds."],
    ["authentication_failed", "The card's authentication step failed."],
    ["abandoned", "The payment was left unfinished on the payment page."],
  ] as const)("says why a payment failed (%s) and retries with a new key", async (code, text) => {
    const assign = vi.spyOn(leaveApp, "assign").mockImplementation(() => {});
    const api = fakeApi({
      payments: [demoPayment({ status: "failed", failureCode: code, redirectUrl: null })],
    });
    const services = await signedIn(api);
    await renderApp("/en/payment-complete?payment=pay_0001", { services, facts: memberFacts });
    expect((await screen.findByTestId("failure-reason")).textContent).toBe(text);
    fireEvent.click(screen.getByRole("button", { name: "Try again" }));
    await waitFor(() => expect(assign).toHaveBeenCalled());
    const checkout = api.calls.find((x) => x.path === "/api/billing/checkout");
    expect(checkout?.body).toMatchObject({
      product: "simAssets",
      tier: "advanced",
      period: "monthly",
      currency: "EUR",
    });
  });

  it("offers the authentication step", async () => {
    const assign = vi.spyOn(leaveApp, "assign").mockImplementation(() => {});
    const challenge = "/api/billing/sandbox/challenge/pay_0001";
    const api = fakeApi({
      payments: [demoPayment({ status: "requires_action", redirectUrl: challenge })],
    });
    const services = await signedIn(api);
    await renderApp("/es/pago-realizado?payment=pay_0001", { services, facts: memberFacts });
    fireEvent.click(await screen.findByRole("button", { name: "Ir a la página de autenticación" }));
    expect(assign).toHaveBeenCalledWith(challenge);
  });
});

describe("my-account/billing-subscription", () => {
  it.each([
    {
      path: "/en/my-account/billing-subscription",
      renews: "Renews on December 21, 2026 for €9.90.",
      cancel: "Cancel the plan",
      question:
        "Cancel your hollytools Stocks plan? You keep the plan until December 21, 2026; nothing more is charged after that, and you can reactivate it until then.",
      confirm: "Yes, cancel at the end of the period",
      pdf: "Download invoice 2026-000001 (PDF)",
      done: "Your plan is cancelled. It stays until the end of its period.",
    },
    {
      path: "/es/mi-cuenta/facturacion-suscripcion",
      renews: "Se renueva el 21 de diciembre de 2026 por 9,90 €.",
      cancel: "Cancelar el plan",
      question:
        "¿Cancelar tu plan de hollytools Acciones? Conservas el plan hasta el 21 de diciembre de 2026; después no se cobra nada más, y puedes reactivarlo hasta entonces.",
      confirm: "Sí, cancelar al final del periodo",
      pdf: "Descargar la factura 2026-000001 (PDF)",
      done: "Tu plan está cancelado. Sigue hasta el final de su periodo.",
    },
  ])("shows the plans and invoices, cancels and downloads at $path", async (c) => {
    const api = fakeApi();
    const services = await signedIn(api);
    const created = vi.fn(() => "blob:invoice");
    Object.assign(URL, { createObjectURL: created, revokeObjectURL: () => {} });
    await renderApp(c.path, { services, facts: memberFacts });
    expect(plain((await screen.findByTestId("next-simAssets")).textContent)).toBe(c.renews);

    fireEvent.click(screen.getByRole("button", { name: c.pdf }));
    await waitFor(() => expect(created).toHaveBeenCalled());
    const pdf = api.calls.find((x) => x.path.endsWith("/pdf"));
    expect(pdf?.path).toBe("/api/billing/invoices/2026-000001/pdf");
    expect(pdf?.query.get("lang")).toBeTruthy();

    // Cancelling asks once more, with the date the plan is kept until.
    fireEvent.click(screen.getByRole("button", { name: c.cancel }));
    expect(plain((await screen.findByTestId("cancel-question-simAssets")).textContent)).toBe(
      c.question,
    );
    expect(api.calls.find((x) => x.path === "/api/cancel-subscription")).toBeUndefined();
    fireEvent.click(screen.getByRole("button", { name: c.confirm }));
    expect((await screen.findByRole("status")).textContent).toBe(c.done);
    const cancel = api.calls.find((x) => x.path === "/api/cancel-subscription");
    expect(cancel?.body).toEqual({ product: "simAssets" });
  });

  it.each([
    {
      path: "/en/my-account/billing-subscription",
      balance: 500,
      renews:
        "Renews on December 21, 2026 for €9.90: €5.00 from your account balance and €4.90 on your card.",
      shown: "€5.00 on your account: it is used before your card on your next charges.",
    },
    {
      path: "/en/my-account/billing-subscription",
      balance: 1500,
      renews:
        "Renews on December 21, 2026 for €9.90, paid from your account balance: nothing is charged to your card.",
      shown: "€15.00 on your account: it is used before your card on your next charges.",
    },
    {
      path: "/es/mi-cuenta/facturacion-suscripcion",
      balance: 500,
      renews:
        "Se renueva el 21 de diciembre de 2026 por 9,90 €: 5,00 € del saldo de tu cuenta y 4,90 € en tu tarjeta.",
      shown: "5,00 € a tu favor: se usa antes que tu tarjeta en tus próximos cobros.",
    },
    {
      path: "/es/mi-cuenta/facturacion-suscripcion",
      balance: 1500,
      renews:
        "Se renueva el 21 de diciembre de 2026 por 9,90 €, pagado con el saldo de tu cuenta: no se cobra nada en tu tarjeta.",
      shown: "15,00 € a tu favor: se usa antes que tu tarjeta en tus próximos cobros.",
    },
  ])(
    "says what the renewal charges to the card when a balance of $balance pays first, at $path",
    async (c) => {
      // The server says how much of the renewal the balance pays (balanceUsedCents).
      const renewal = activePlan("simAssets", "standard");
      const withBalance: BillingOverview = {
        ...overview,
        products: [
          {
            ...renewal,
            next: { ...renewal.next!, balanceUsedCents: Math.min(c.balance, 990) },
          },
          ...overview.products.slice(1),
        ],
        balances: [{ currency: "EUR", cents: c.balance }],
      };
      const services = await signedIn(fakeApi({ overview: withBalance }));
      await renderApp(c.path, { services, facts: memberFacts });
      expect(plain((await screen.findByTestId("next-simAssets")).textContent)).toBe(c.renews);
      expect(plain(screen.getByTestId("balance").textContent)).toContain(c.shown);
    },
  );
});
