/**
 * The words billing writes outside the app (emails, invoice PDFs, the sandbox's pages), in both
 * languages. The client's catalogs are not on the server, so these few texts live here.
 */
import type { BillingCurrency, FailureCode, PaidTier, Period } from "../../contract/billing.ts";
import type { Edition, Locale, Product } from "../../contract/common.ts";
import { productName, tierName } from "../../contract/names.ts";

const intlLocale: Record<Locale, string> = { en: "en-US", es: "es-ES" };

export const money = (locale: Locale, cents: number, currency: BillingCurrency | string) =>
  new Intl.NumberFormat(intlLocale[locale], { style: "currency", currency }).format(cents / 100);

export const day = (locale: Locale, date: Date) =>
  new Intl.DateTimeFormat(intlLocale[locale], {
    day: "numeric",
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  }).format(date);

const periodNames: Record<Locale, Record<Period, string>> = {
  en: { monthly: "monthly", annual: "annual" },
  es: { monthly: "mensual", annual: "anual" },
};

/** A plan as emails and invoices name it: "hollytools Stocks Advanced (monthly)". */
export const planName = (
  locale: Locale,
  edition: Edition,
  product: Product,
  tier: PaidTier,
  period: Period,
) =>
  `${productName(locale, edition, product)} ${tierName(locale, tier)} (${periodNames[locale][period]})`;

export const failureText: Record<Locale, Record<FailureCode, string>> = {
  en: {
    card_declined: "the card was declined",
    insufficient_funds: "the card has insufficient funds",
    authentication_failed: "the card's authentication failed",
    abandoned: "the payment was abandoned",
    expired: "the checkout expired",
    superseded: "this checkout was replaced by a newer one; nothing was charged here",
  },
  es: {
    card_declined: "la tarjeta fue rechazada",
    insufficient_funds: "la tarjeta no tiene fondos suficientes",
    authentication_failed: "falló la autenticación de la tarjeta",
    abandoned: "el pago se abandonó",
    expired: "el pago caducó",
    superseded: "este pago se sustituyó por otro más reciente; aquí no se cobró nada",
  },
};

export interface InvoiceLabels {
  readonly invoice: string;
  readonly creditNote: string;
  readonly number: string;
  readonly date: string;
  readonly billedTo: string;
  readonly tin: string;
  readonly description: string;
  readonly period: string;
  readonly amount: string;
  readonly credit: (plan: string) => string;
  readonly refund: (plan: string) => string;
  readonly balanceUsed: string;
  readonly balanceAdded: string;
  readonly base: string;
  readonly vat: string;
  readonly total: string;
  readonly vatIncluded: string;
  readonly seller: string;
}

export const invoiceLabels: Record<Locale, InvoiceLabels> = {
  en: {
    invoice: "Invoice",
    creditNote: "Credit note",
    number: "Number",
    date: "Date",
    billedTo: "Billed to",
    tin: "TIN",
    description: "Description",
    period: "Period",
    amount: "Amount",
    credit: (plan) => `Credit for unused time on ${plan}`,
    refund: (plan) => `Refund of ${plan}`,
    balanceUsed: "Paid from your account balance",
    balanceAdded: "Credit carried to your account balance (used on your next charges)",
    base: "Taxable base",
    vat: "VAT 21%",
    total: "Total",
    vatIncluded: "Prices include VAT.",
    seller: "hollytools · portfolio analytics",
  },
  es: {
    invoice: "Factura",
    creditNote: "Factura rectificativa",
    number: "Número",
    date: "Fecha",
    billedTo: "Facturado a",
    tin: "NIF",
    description: "Concepto",
    period: "Periodo",
    amount: "Importe",
    credit: (plan) => `Abono por el tiempo no usado de ${plan}`,
    refund: (plan) => `Devolución de ${plan}`,
    balanceUsed: "Pagado con el saldo de tu cuenta",
    balanceAdded: "Abono al saldo de tu cuenta (se usa en tus próximos cobros)",
    base: "Base imponible",
    vat: "IVA 21 %",
    total: "Total",
    vatIncluded: "Los precios incluyen IVA.",
    seller: "hollytools · análisis de carteras",
  },
};

export interface BillingEmail {
  readonly subject: string;
  readonly text: string;
}

const hello = { en: "Hello,", es: "Hola:" } as const;

export const billingEmails = {
  receipt: (
    l: Locale,
    o: {
      brand: string;
      plan: string;
      amount: string;
      invoice: string;
      until: string;
      link: string;
      /** Taken from the account balance (before the card), and carried to it; null when none. */
      fromBalance?: string | null;
      toBalance?: string | null;
    },
  ): BillingEmail =>
    l === "es"
      ? {
          subject: `Recibo de ${o.brand}: ${o.plan}`,
          text: `${hello.es}\n\n${o.fromBalance ? `Hemos usado ${o.fromBalance} del saldo de tu cuenta y cobrado ${o.amount} en tu tarjeta` : `Hemos cobrado ${o.amount}`} por ${o.plan}. Tu plan está activo hasta el ${o.until}.\n${o.toBalance ? `Hemos abonado ${o.toBalance} al saldo de tu cuenta: se usa antes que tu tarjeta en tus próximos cobros.\n` : ""}Factura ${o.invoice}: la tienes en ${o.link}\n`,
        }
      : {
          subject: `Your ${o.brand} receipt: ${o.plan}`,
          text: `${hello.en}\n\n${o.fromBalance ? `We used ${o.fromBalance} of your account balance and charged ${o.amount} to your card` : `We charged ${o.amount}`} for ${o.plan}. Your plan is active until ${o.until}.\n${o.toBalance ? `We credited ${o.toBalance} to your account balance: it is used before your card on your next charges.\n` : ""}Invoice ${o.invoice} is at ${o.link}\n`,
        },
  paymentFailed: (
    l: Locale,
    o: { brand: string; plan: string; reason: string; retryOn: string | null; link: string },
  ): BillingEmail =>
    l === "es"
      ? {
          subject: `No hemos podido cobrar tu plan de ${o.brand}`,
          text: `${hello.es}\n\nNo hemos podido cobrar la renovación de ${o.plan}: ${o.reason}.\n${o.retryOn ? `Lo intentaremos de nuevo el ${o.retryOn}; mientras tanto conservas tu plan.` : "Era el último intento: tu plan ha terminado."}\nPuedes revisar tu tarjeta o tu plan en ${o.link}\n`,
        }
      : {
          subject: `We could not charge your ${o.brand} plan`,
          text: `${hello.en}\n\nWe could not charge the renewal of ${o.plan}: ${o.reason}.\n${o.retryOn ? `We will try again on ${o.retryOn}; meanwhile you keep your plan.` : "That was the last attempt: your plan has ended."}\nYou can review your card or your plan at ${o.link}\n`,
        },
  trialEnding: (l: Locale, o: { brand: string; endsOn: string; link: string }): BillingEmail =>
    l === "es"
      ? {
          subject: `Tu prueba de ${o.brand} termina el ${o.endsOn}`,
          text: `${hello.es}\n\nTu prueba gratuita termina el ${o.endsOn}. Después tu cuenta vuelve a ser gratuita; nada de lo que has guardado se borra.\nSi quieres seguir con todas las funciones, elige un plan en ${o.link}\n`,
        }
      : {
          subject: `Your ${o.brand} trial ends on ${o.endsOn}`,
          text: `${hello.en}\n\nYour free trial ends on ${o.endsOn}. After that your account is free again; nothing you saved is deleted.\nTo keep every feature, choose a plan at ${o.link}\n`,
        },
  planEnded: (l: Locale, o: { brand: string; plan: string; link: string }): BillingEmail =>
    l === "es"
      ? {
          subject: `Tu plan de ${o.brand} ha terminado`,
          text: `${hello.es}\n\n${o.plan} ha terminado y tu cuenta vuelve a ser gratuita. Tus carteras siguen ahí: puedes verlas y exportarlas.\nPuedes volver a suscribirte cuando quieras en ${o.link}\n`,
        }
      : {
          subject: `Your ${o.brand} plan has ended`,
          text: `${hello.en}\n\n${o.plan} has ended and your account is free again. Your portfolios are still there to see and export.\nYou can subscribe again at any time at ${o.link}\n`,
        },
};

/** The sandbox checkout's words. */
export const sandboxTexts = {
  en: {
    title: "Sandbox checkout",
    notice: "Test mode: no real money moves. Use one of the test cards below.",
    pay: (amount: string) => `Pay ${amount}`,
    cardNumber: "Card number",
    expiry: "Expiry (MM/YY)",
    cvc: "CVC",
    cancel: "Cancel and go back",
    testCards: "Test cards",
    cards: {
      succeeds: "succeeds",
      declined: "is declined",
      insufficient_funds: "has insufficient funds",
      authenticate: "asks for authentication",
      declinesRenewals: "succeeds now, then its renewals are declined",
    },
    invalid: {
      number: "That card number is not valid.",
      expiry: "The expiry date must be a month from now on, as MM/YY.",
      cvc: "The CVC has 3 or 4 digits.",
    },
    challengeTitle: "Confirm this payment",
    challengeText: "Your bank asks you to confirm this payment (sandbox authentication).",
    approve: "Approve",
    fail: "Fail authentication",
    finished: "This payment is already finished.",
    superseded: "This checkout was replaced by a newer one; nothing was charged here.",
    closed: "This checkout has closed; nothing was charged here.",
    back: "Back to the site",
    notFound: "This checkout does not exist.",
  },
  es: {
    title: "Pago de prueba",
    notice: "Modo de prueba: no se mueve dinero real. Usa una de las tarjetas de prueba de abajo.",
    pay: (amount: string) => `Pagar ${amount}`,
    cardNumber: "Número de tarjeta",
    expiry: "Caducidad (MM/AA)",
    cvc: "CVC",
    cancel: "Cancelar y volver",
    testCards: "Tarjetas de prueba",
    cards: {
      succeeds: "se acepta",
      declined: "se rechaza",
      insufficient_funds: "no tiene fondos suficientes",
      authenticate: "pide autenticación",
      declinesRenewals: "se acepta ahora y luego se rechazan sus renovaciones",
    },
    invalid: {
      number: "Ese número de tarjeta no es válido.",
      expiry: "La caducidad debe ser de este mes en adelante, como MM/AA.",
      cvc: "El CVC tiene 3 o 4 cifras.",
    },
    challengeTitle: "Confirma este pago",
    challengeText: "Tu banco te pide que confirmes este pago (autenticación de prueba).",
    approve: "Aprobar",
    fail: "Hacer fallar la autenticación",
    finished: "Este pago ya ha terminado.",
    superseded: "Este pago se sustituyó por otro más reciente; aquí no se cobró nada.",
    closed: "Este pago se ha cerrado; aquí no se cobró nada.",
    back: "Volver al sitio",
    notFound: "Este pago no existe.",
  },
} as const;
