/**
 * The sandbox payment provider (docs/billing.md, "The sandbox"): it plays an outside payment
 * service inside the product. It keeps its own books in its own tables, serves a hosted checkout
 * and an authentication (challenge) page, accepts PRODUCT.md's test cards, and reports every
 * outcome to the server's events endpoint as an HMAC-signed event, as a real provider would.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { and, eq, inArray } from "drizzle-orm";
import type { BillingCurrency, FailureCode } from "../../contract/billing.ts";
import type { Locale } from "../../contract/common.ts";
import type { Db } from "../db/database.ts";
import { appMeta, sandboxCards, sandboxPayments } from "../db/schema.ts";
import type { Logger } from "../logger.ts";
import {
  BadSignature,
  type ChargeInput,
  type CheckoutInput,
  type PaymentProvider,
  type ProviderEvent,
  type ProviderPayment,
} from "./provider.ts";

export type CardBehaviour =
  "succeeds" | "declined" | "insufficient_funds" | "authenticate" | "declinesRenewals";

/** PRODUCT.md's sandbox test cards; any future expiry and any CVC. */
export const testCards: Readonly<Record<string, CardBehaviour>> = {
  "4242424242424242": "succeeds",
  "4000000000000002": "declined",
  "4000000000009995": "insufficient_funds",
  "4000002760003184": "authenticate",
  // Not in PRODUCT.md's list: pays now, and the kept card is declined at renewals, so a failed
  // renewal can be walked in a browser with the test clock (docs/billing.md).
  "4000000000000341": "declinesRenewals",
};

export const SIGNATURE_HEADER = "sandbox-signature";
/** Events older than this (by their signed time) are refused: a captured event cannot be replayed later. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;
const SECRET_KEY = "sandbox_webhook_secret";

/** Delivers a signed event to the server's events endpoint. */
export type Deliver = (rawBody: string, headers: Record<string, string>) => Promise<void>;

export interface SandboxOptions {
  readonly db: Db;
  readonly logger: Logger;
  /** Where the hosted pages live (the product serves them under /sandbox). */
  readonly pagesBase?: string;
  /** The signing secret; by default one is made once per database and kept in app_meta. */
  readonly secret?: string;
  readonly deliver: Deliver;
  readonly clock?: () => Date;
  /**
   * Applies a payment's new state in the transaction that records it at the sandbox (the product's
   * own database): a success and its plan commit together, before the payer is sent back. Answers
   * what to do after the commit (the emails). The signed event still follows, and finds the
   * payment already applied.
   */
  readonly settle?: (tx: Db, payment: ProviderPayment) => Promise<() => Promise<void>>;
}

export interface SandboxProvider extends PaymentProvider {
  /** The payer's actions on the hosted pages. */
  checkout(id: string): Promise<SandboxCheckout | null>;
  pay(id: string, card: CardForm): Promise<PayOutcome>;
  authenticate(id: string, approve: boolean): Promise<SandboxCheckout | null>;
  abandon(id: string): Promise<SandboxCheckout | null>;
  /** Signs a body as the sandbox does (tests use it to forge and replay events). */
  sign(rawBody: string, at?: Date): Promise<string>;
}

export interface SandboxCheckout {
  readonly id: string;
  readonly reference: string;
  readonly amountCents: number;
  readonly currency: BillingCurrency;
  readonly description: string;
  readonly returnUrl: string | null;
  readonly language: Locale;
  readonly status: ProviderPayment["status"];
  readonly failureCode: FailureCode | null;
}

export interface CardForm {
  readonly number: string;
  readonly expiry: string;
  readonly cvc: string;
}

export type PayOutcome =
  | { readonly kind: "invalid"; readonly field: "number" | "expiry" | "cvc" }
  | { readonly kind: "done"; readonly checkout: SandboxCheckout };

type Row = typeof sandboxPayments.$inferSelect;

const newId = (prefix: string) => `${prefix}_${randomBytes(16).toString("base64url")}`;

/** Luhn's check digit test, which every card number passes. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return digits.length >= 12 && sum % 10 === 0;
}

/** MM/YY (or MM/YYYY) not before the current month. */
export function expiryValid(expiry: string, now: Date): boolean {
  const m = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(expiry);
  if (!m) return false;
  const month = Number(m[1]);
  const year = m[2]!.length === 2 ? 2000 + Number(m[2]) : Number(m[2]);
  if (month < 1 || month > 12) return false;
  return year * 12 + month >= now.getUTCFullYear() * 12 + now.getUTCMonth() + 1;
}

export function createSandboxProvider(options: SandboxOptions): SandboxProvider {
  const { db, logger } = options;
  const pagesBase = options.pagesBase ?? "/sandbox";
  const clock = options.clock ?? (() => new Date());
  let secret: Promise<string> | null = options.secret ? Promise.resolve(options.secret) : null;

  const secretOf = (): Promise<string> =>
    (secret ??= (async () => {
      await db
        .insert(appMeta)
        .values({ key: SECRET_KEY, value: randomBytes(32).toString("base64url") })
        .onConflictDoNothing();
      const [row] = await db.select().from(appMeta).where(eq(appMeta.key, SECRET_KEY));
      return row!.value;
    })());

  const sign = async (rawBody: string, at = clock()) => {
    const t = Math.floor(at.getTime() / 1000);
    const v1 = createHmac("sha256", await secretOf())
      .update(`${t}.${rawBody}`)
      .digest("hex");
    return `t=${t},v1=${v1}`;
  };

  const view = (row: Row): ProviderPayment => ({
    ref: row.id,
    reference: row.reference,
    amountCents: row.amountCents,
    currency: row.currency as BillingCurrency,
    status: row.status as ProviderPayment["status"],
    failureCode: row.failureCode as FailureCode | null,
    redirectUrl:
      row.status === "open"
        ? `${pagesBase}/checkout/${row.id}`
        : row.status === "requires_action"
          ? `${pagesBase}/challenge/${row.id}`
          : null,
    paymentMethod: row.status === "succeeded" ? row.cardToken : null,
  });

  const checkoutOf = (row: Row): SandboxCheckout => ({
    id: row.id,
    reference: row.reference,
    amountCents: row.amountCents,
    currency: row.currency as BillingCurrency,
    description: row.description,
    returnUrl: row.returnUrl,
    language: row.language as Locale,
    status: row.status as ProviderPayment["status"],
    failureCode: row.failureCode as FailureCode | null,
  });

  const byId = async (id: string) =>
    (await db.select().from(sandboxPayments).where(eq(sandboxPayments.id, id)))[0] ?? null;

  /** Reports a payment's new state to the server; a lost delivery is recovered by reconciliation. */
  const emit = async (row: Row) => {
    const event: ProviderEvent = {
      id: newId("evt"),
      type: `payment.${row.status}`,
      payment: view(row),
    };
    const body = JSON.stringify(event);
    try {
      await options.deliver(body, {
        "content-type": "application/json",
        [SIGNATURE_HEADER]: await sign(body),
      });
    } catch (error) {
      logger.warn("sandbox event not delivered", { event: event.id, error });
    }
  };

  /**
   * Moves a payment from one of `from` to its outcome, once: the update is conditional, so two
   * submissions of the same page decide it once and only the first is reported. With `settle`, the
   * product applies the outcome in the same transaction.
   */
  const transition = async (
    id: string,
    from: readonly string[],
    to: { status: string; failureCode?: FailureCode | null; cardToken?: string | null },
  ): Promise<Row | null> => {
    let afterCommit: (() => Promise<void>) | null = null;
    const row = await db.transaction(async (tx) => {
      const rows = await tx
        .update(sandboxPayments)
        .set({
          status: to.status,
          failureCode: to.failureCode ?? null,
          ...(to.cardToken !== undefined ? { cardToken: to.cardToken } : {}),
          updatedAt: clock(),
        })
        .where(and(eq(sandboxPayments.id, id), inArray(sandboxPayments.status, [...from])))
        .returning();
      if (!rows[0]) return null;
      if (options.settle) afterCommit = await options.settle(tx, view(rows[0]));
      return rows[0];
    });
    if (!row) return byId(id);
    await (afterCommit as (() => Promise<void>) | null)?.();
    await emit(row);
    return row;
  };

  const keepCard = async (digits: string, behaviour: CardBehaviour) => {
    const token = newId("card");
    await db.insert(sandboxCards).values({ token, last4: digits.slice(-4), behaviour });
    return token;
  };

  const insertOnce = async (values: typeof sandboxPayments.$inferInsert) => {
    await db.insert(sandboxPayments).values(values).onConflictDoNothing();
    const [row] = await db
      .select()
      .from(sandboxPayments)
      .where(eq(sandboxPayments.idempotencyKey, values.idempotencyKey));
    return row!;
  };

  return {
    name: "sandbox",

    async createCheckout(input: CheckoutInput) {
      return view(
        await insertOnce({
          id: newId("sbp"),
          idempotencyKey: input.idempotencyKey,
          reference: input.reference,
          amountCents: input.amountCents,
          currency: input.currency,
          description: input.description,
          returnUrl: input.returnUrl,
          language: input.language,
          status: "open",
        }),
      );
    },

    async chargeSaved(input: ChargeInput) {
      const existing = (
        await db
          .select()
          .from(sandboxPayments)
          .where(eq(sandboxPayments.idempotencyKey, input.idempotencyKey))
      )[0];
      if (existing) return view(existing);
      const [card] = await db
        .select()
        .from(sandboxCards)
        .where(eq(sandboxCards.token, input.paymentMethod));
      // A kept card was authenticated when it was first used, so renewals need no second step.
      const outcome: { status: string; failureCode: FailureCode | null } = !card
        ? { status: "failed", failureCode: "card_declined" }
        : card.behaviour === "declined" || card.behaviour === "declinesRenewals"
          ? { status: "failed", failureCode: "card_declined" }
          : card.behaviour === "insufficient_funds"
            ? { status: "failed", failureCode: "insufficient_funds" }
            : { status: "succeeded", failureCode: null };
      const row = await insertOnce({
        id: newId("sbp"),
        idempotencyKey: input.idempotencyKey,
        reference: input.reference,
        amountCents: input.amountCents,
        currency: input.currency,
        description: input.description,
        status: outcome.status,
        failureCode: outcome.failureCode,
        cardToken: card ? input.paymentMethod : null,
      });
      await emit(row);
      return view(row);
    },

    async refund(input) {
      // The sandbox keeps no balance: a refund is acknowledged with a ref derived from its key.
      const ref = `re_${createHmac("sha256", "sandbox-refund").update(input.idempotencyKey).digest("base64url").slice(0, 22)}`;
      logger.info("sandbox refund", {
        paymentRef: input.paymentRef,
        amountCents: input.amountCents,
      });
      return { ref };
    },

    async retrieve(by) {
      const rows = by.ref
        ? await db.select().from(sandboxPayments).where(eq(sandboxPayments.id, by.ref))
        : by.idempotencyKey
          ? await db
              .select()
              .from(sandboxPayments)
              .where(eq(sandboxPayments.idempotencyKey, by.idempotencyKey))
          : [];
      return rows[0] ? view(rows[0]) : null;
    },

    async expire(ref, reason = "expired") {
      const row = await transition(ref, ["open", "requires_action"], {
        status: "failed",
        failureCode: reason,
      });
      return row ? view(row) : null;
    },

    async verifyEvent(rawBody, headers) {
      const header = headers[SIGNATURE_HEADER] ?? "";
      const m = /^t=(\d{1,12}),v1=([0-9a-f]{64})$/.exec(header);
      if (!m) throw new BadSignature("missing or malformed signature header");
      const t = Number(m[1]);
      if (Math.abs(clock().getTime() / 1000 - t) > SIGNATURE_TOLERANCE_SECONDS)
        throw new BadSignature("signature time outside the tolerance");
      const expected = createHmac("sha256", await secretOf())
        .update(`${t}.${rawBody}`)
        .digest();
      const given = Buffer.from(m[2]!, "hex");
      if (given.length !== expected.length || !timingSafeEqual(given, expected))
        throw new BadSignature("signature does not match");
      let event: ProviderEvent;
      try {
        event = JSON.parse(rawBody) as ProviderEvent;
      } catch {
        throw new BadSignature("signed body is not JSON");
      }
      if (typeof event?.id !== "string" || typeof event.payment?.reference !== "string")
        throw new BadSignature("signed body is not an event");
      return event;
    },

    async checkout(id) {
      const row = await byId(id);
      return row ? checkoutOf(row) : null;
    },

    async pay(id, card) {
      const digits = card.number.replace(/[\s-]/g, "");
      if (!/^\d{12,19}$/.test(digits) || !luhnValid(digits))
        return { kind: "invalid", field: "number" };
      if (!expiryValid(card.expiry, clock())) return { kind: "invalid", field: "expiry" };
      if (!/^\d{3,4}$/.test(card.cvc.trim())) return { kind: "invalid", field: "cvc" };
      // Only the documented test cards exist in the sandbox; any other number is declined.
      const behaviour = testCards[digits] ?? "declined";
      const to =
        behaviour === "succeeds" || behaviour === "declinesRenewals"
          ? { status: "succeeded", cardToken: await keepCard(digits, behaviour) }
          : behaviour === "authenticate"
            ? { status: "requires_action", cardToken: await keepCard(digits, behaviour) }
            : {
                status: "failed",
                failureCode: (behaviour === "insufficient_funds"
                  ? "insufficient_funds"
                  : "card_declined") as FailureCode,
              };
      const row = await transition(id, ["open"], to);
      if (!row) throw new Error(`unknown sandbox checkout ${id}`);
      return { kind: "done", checkout: checkoutOf(row) };
    },

    async authenticate(id, approve) {
      const row = await transition(
        id,
        ["requires_action"],
        approve
          ? { status: "succeeded" }
          : { status: "failed", failureCode: "authentication_failed", cardToken: null },
      );
      return row ? checkoutOf(row) : null;
    },

    async abandon(id) {
      const row = await transition(id, ["open", "requires_action"], {
        status: "cancelled",
        failureCode: "abandoned",
      });
      return row ? checkoutOf(row) : null;
    },

    sign,
  };
}
