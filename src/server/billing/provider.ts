/**
 * The payment provider interface (docs/billing.md, "Providers"). The billing service knows
 * providers only through it: the sandbox is the first implementation, and a real one is added by
 * implementing these five calls, nothing else.
 */
import type { BillingCurrency, FailureCode } from "../../contract/billing.ts";
import type { Locale } from "../../contract/common.ts";

/** A payment as the provider sees it. */
export interface ProviderPayment {
  /** The provider's id of the payment. */
  readonly ref: string;
  /** Our payment id, given to the provider when the payment was created. */
  readonly reference: string;
  readonly amountCents: number;
  readonly currency: BillingCurrency;
  readonly status: "open" | "requires_action" | "succeeded" | "failed" | "cancelled";
  readonly failureCode: FailureCode | null;
  /** Where the payer continues (the checkout, or the authentication step). */
  readonly redirectUrl: string | null;
  /** A reusable card the provider keeps for renewals, once a payment has succeeded. */
  readonly paymentMethod: string | null;
}

/** A verified notice from the provider. */
export interface ProviderEvent {
  readonly id: string;
  readonly type: string;
  readonly payment: ProviderPayment;
}

export interface CheckoutInput {
  readonly reference: string;
  readonly amountCents: number;
  readonly currency: BillingCurrency;
  readonly description: string;
  readonly idempotencyKey: string;
  /** Where the payer's browser goes when the checkout ends (any outcome). */
  readonly returnUrl: string;
  readonly language: Locale;
}

export interface ChargeInput {
  readonly reference: string;
  readonly amountCents: number;
  readonly currency: BillingCurrency;
  readonly description: string;
  readonly idempotencyKey: string;
  readonly paymentMethod: string;
}

export interface PaymentProvider {
  readonly name: string;
  /** Opens a hosted checkout; the same idempotency key gives back the same checkout. */
  createCheckout(input: CheckoutInput): Promise<ProviderPayment>;
  /** Charges a kept card without the payer (renewals); the same key never charges twice. */
  chargeSaved(input: ChargeInput): Promise<ProviderPayment>;
  /** Gives money back; the same key never refunds twice. */
  refund(input: {
    readonly paymentRef: string;
    readonly amountCents: number;
    readonly idempotencyKey: string;
  }): Promise<{ readonly ref: string }>;
  /** The provider's record of a payment, by its ref or by the idempotency key it was made with. */
  retrieve(by: {
    readonly ref?: string;
    readonly idempotencyKey?: string;
  }): Promise<ProviderPayment | null>;
  /** Ends an open checkout the payer abandoned; a payment already decided is left as it is. */
  /** Closes an open checkout; `reason` says why (a newer checkout replaced it, or it expired). */
  expire(ref: string, reason?: "expired" | "superseded"): Promise<ProviderPayment | null>;
  /** Checks the signature of a notice and reads it; throws BadSignature when it does not verify. */
  verifyEvent(
    rawBody: string,
    headers: Readonly<Record<string, string | undefined>>,
  ): Promise<ProviderEvent>;
}

export class BadSignature extends Error {
  constructor(reason: string) {
    super(`bad provider signature: ${reason}`);
    this.name = "BadSignature";
  }
}
