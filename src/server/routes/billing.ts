import { Hono } from "hono";
import { Schema } from "effect";
import {
  BillingOverview,
  CheckoutRequest,
  CheckoutResponse,
  Payment,
  PlanCatalog,
  PlanCatalogQuery,
  PlanChoice,
  ProductRequest,
  Quote,
  ScheduleRequest,
  TestClockRequest,
  TestCreditRequest,
} from "../../contract/billing.ts";
import { CommonQuery, type Locale } from "../../contract/common.ts";
import type { AppDeps, AppEnv } from "../app-env.ts";
import { clientById } from "../accounts/clients.ts";
import { localeOf } from "../billing/apply.ts";
import { giveCredit } from "../billing/balance.ts";
import { clientInvoice, invoicePdf } from "../billing/invoices.ts";
import { BadSignature } from "../billing/provider.ts";
import { planCatalog } from "../billing/catalog.ts";
import type { BillingDeps } from "../billing/context.ts";
import type { BillingService } from "../billing/service.ts";
import { moveTestClock } from "../billing/test-clock.ts";
import { ApiFailure } from "../http/api-failure.ts";
import { requireSession } from "../http/auth.ts";
import { idempotent } from "../http/idempotency.ts";
import { jsonBody, paramsOf, queryOf, reply } from "../http/validate.ts";

const PaymentParams = Schema.Struct({
  id: Schema.String.pipe(Schema.check(Schema.isPattern(/^pay_[A-Za-z0-9_-]{10,40}$/))),
});
const InvoiceParams = Schema.Struct({
  number: Schema.String.pipe(Schema.check(Schema.isPattern(/^\d{4}-\d{6}$/))),
});
/** A provider's event is small; anything larger is refused before it is read. */
const MAX_EVENT_BYTES = 64 * 1024;

/** The plans (public), the provider's events (signed), and the signed-in client's billing. */
export function billingRoutes(deps: AppDeps, billing: BillingService, billingDeps: BillingDeps) {
  /** The test clock exists with the built-in sandbox and SANDBOX_TEST_CLOCK=true, never otherwise. */
  const testClockOn = deps.config.sandboxTestClock && !deps.paymentProvider;
  const session = requireSession(deps);
  const once = idempotent(deps);
  /** The client's stored language: invoices are printed in it, whatever screen asks for them. */
  const clientLanguage = async (clientId: number): Promise<Locale> =>
    localeOf((await clientById(deps.database.db, clientId))?.language ?? "en");
  const langOf = async (c: Parameters<typeof queryOf>[0], clientId: number): Promise<Locale> => {
    const { lang } = queryOf(c, CommonQuery);
    if (lang) return lang;
    const row = await clientById(deps.database.db, clientId);
    return localeOf(row?.language ?? "en");
  };

  return new Hono<AppEnv>()
    .get("/plans", (c) => {
      const { currency } = queryOf(c, PlanCatalogQuery);
      return reply(c, PlanCatalog, planCatalog(currency ?? "EUR"));
    })
    .post("/events", async (c) => {
      if (Number(c.req.header("content-length") ?? 0) > MAX_EVENT_BYTES)
        throw new ApiFailure(400, "INVALID_REQUEST");
      const raw = await c.req.text();
      if (raw.length > MAX_EVENT_BYTES) throw new ApiFailure(400, "INVALID_REQUEST");
      let event;
      try {
        event = await billing.provider.verifyEvent(raw, {
          ...Object.fromEntries(
            Object.entries(c.req.header()).map(([k, v]) => [k.toLowerCase(), v]),
          ),
        });
      } catch (error) {
        if (!(error instanceof BadSignature)) throw error;
        deps.logger.warn("billing event refused", {
          reason: error.message,
          requestId: c.get("requestId"),
        });
        throw new ApiFailure(400, "BAD_SIGNATURE");
      }
      const outcome = await billing.apply(event.payment, { id: event.id, type: event.type });
      return c.json({ received: true, outcome });
    })
    .use(session)
    .get("/", async (c) => reply(c, BillingOverview, await billing.overview(c.get("clientId"))))
    .post("/quote", async (c) =>
      reply(c, Quote, await billing.quote(c.get("clientId"), await jsonBody(c, PlanChoice))),
    )
    .post("/checkout", once, async (c) => {
      const request = await jsonBody(c, CheckoutRequest);
      const clientId = c.get("clientId");
      return reply(
        c,
        CheckoutResponse,
        await billing.checkout(clientId, request, await langOf(c, clientId)),
      );
    })
    .get("/payments/:id", async (c) =>
      reply(c, Payment, await billing.payment(c.get("clientId"), paramsOf(c, PaymentParams).id)),
    )
    .post("/schedule", async (c) =>
      reply(
        c,
        BillingOverview,
        await billing.schedule(c.get("clientId"), await jsonBody(c, ScheduleRequest)),
      ),
    )
    .post("/schedule/cancel", async (c) =>
      reply(
        c,
        BillingOverview,
        await billing.cancelScheduled(
          c.get("clientId"),
          (await jsonBody(c, ProductRequest)).product,
        ),
      ),
    )
    .post("/trial", once, async (c) =>
      reply(
        c,
        BillingOverview,
        await billing.startTrial(c.get("clientId"), (await jsonBody(c, ProductRequest)).product),
      ),
    )
    .post("/test-clock", async (c) => {
      // The request is read first, as on every call: bad input is a 400 whatever the switch.
      const { days } = await jsonBody(c, TestClockRequest);
      if (!testClockOn) throw new ApiFailure(403, "TEST_CLOCK_DISABLED");
      const clientId = c.get("clientId");
      await billing.billable(clientId);
      await moveTestClock(billingDeps, billing, clientId, days);
      return reply(c, BillingOverview, await billing.overview(clientId));
    })
    .post("/test-credit", async (c) => {
      // A credit given by hand, behind the test clock's switch: a walk's account balance.
      const { cents, currency } = await jsonBody(c, TestCreditRequest);
      if (!testClockOn) throw new ApiFailure(403, "TEST_CLOCK_DISABLED");
      const clientId = c.get("clientId");
      await billing.billable(clientId);
      await giveCredit(deps.database.db, clientId, currency, cents);
      return reply(c, BillingOverview, await billing.overview(clientId));
    })
    .get("/invoices/:number/pdf", async (c) => {
      const clientId = c.get("clientId");
      await billing.billable(clientId);
      const row = await clientInvoice(
        deps.database.db,
        clientId,
        paramsOf(c, InvoiceParams).number,
      );
      if (!row) throw new ApiFailure(404, "NOT_FOUND");
      const bytes = invoicePdf(row, await clientLanguage(clientId), deps.config.edition);
      return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
        "Content-Type": "application/pdf",
        "Content-Disposition": `attachment; filename="invoice-${row.number}.pdf"`,
        "Cache-Control": "private, no-store",
      });
    });
}

/** Specification section 7: POST /cancel-subscription and POST /reactivate-subscription. */
export function subscriptionRoutes(deps: AppDeps, billing: BillingService) {
  // The session check is per route: this router is mounted at the API's root.
  const session = requireSession(deps);
  return new Hono<AppEnv>()
    .post("/cancel-subscription", session, async (c) =>
      reply(
        c,
        BillingOverview,
        await billing.cancel(c.get("clientId"), (await jsonBody(c, ProductRequest)).product),
      ),
    )
    .post("/reactivate-subscription", session, async (c) =>
      reply(
        c,
        BillingOverview,
        await billing.reactivate(c.get("clientId"), (await jsonBody(c, ProductRequest)).product),
      ),
    );
}
