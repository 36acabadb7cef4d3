import { sql } from "drizzle-orm";
import {
  boolean,
  doublePrecision,
  primaryKey,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp("updated_at", { withTimezone: true }).notNull().defaultNow();

/** Facts about this installation (e.g. when its database was created), shown on the health page. */
export const appMeta = pgTable("app_meta", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
  updatedAt: updatedAt(),
});

/** A client (specification section 3) with the account kind, trial and accepted policy. */
export const clients = pgTable(
  "clients",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    email: text("email").notNull(),
    passwordHash: text("password_hash").notNull(),
    name: text("name").notNull(),
    surname: text("surname").notNull(),
    phone: text("phone"),
    telephone: text("telephone"),
    countryId: text("country_id"),
    newsletter: boolean("newsletter").notNull().default(false),
    language: text("language").notNull().default("en"),
    level: integer("level").notNull().default(1),
    birthDate: date("birth_date", { mode: "string" }),
    tin: text("tin"),
    postalCode: text("postal_code"),
    city: text("city"),
    address: text("address"),
    profession: text("profession"),
    emailConfirmed: boolean("email_confirmed").notNull().default(false),
    kind: text("kind").notNull().default("standard"),
    trialEndsAt: timestamp("trial_ends_at", { withTimezone: true }),
    /** When the client started its one free trial, and when it was warned of its end. */
    trialStartedAt: timestamp("trial_started_at", { withTimezone: true }),
    trialWarnedAt: timestamp("trial_warned_at", { withTimezone: true }),
    /** How far the sandbox's test clock has moved this account forward (docs/billing.md), in seconds. */
    billingClockOffsetSeconds: integer("billing_clock_offset_seconds").notNull().default(0),
    policiesVersion: text("policies_version"),
    policiesAcceptedAt: timestamp("policies_accepted_at", { withTimezone: true }),
    /** The name the community ranking shows (never the email); null: "anonymous". */
    alias: text("alias"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("clients_email_key").on(sql`lower(${t.email})`),
    uniqueIndex("clients_alias_key").on(sql`lower(${t.alias})`),
  ],
);

/** One subscription per client and product; the tier decides the permissions. */
export const subscriptions = pgTable(
  "subscriptions",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    clientId: integer("client_id")
      .notNull()
      .references(() => clients.id, { onDelete: "cascade" }),
    product: text("product").notNull(),
    tier: text("tier").notNull().default("free"),
    period: text("period"),
    planId: integer("plan_id"),
    active: boolean("active").notNull().default(true),
    cancelled: boolean("cancelled").notNull().default(false),
    expiryDate: timestamp("expiry_date", { withTimezone: true }),
    /** Billing (docs/billing.md): the paid period's currency, start and the card renewals charge. */
    currency: text("currency"),
    periodStart: timestamp("period_start", { withTimezone: true }),
    paymentMethod: text("payment_method"),
    /** Failed renewal attempts of the current period; the next retry, while one is due. */
    renewalFailures: integer("renewal_failures").notNull().default(0),
    nextRetryAt: timestamp("next_retry_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("subscriptions_client_product_key").on(t.clientId, t.product)],
);

/** Plans on sale (src/contract/billing.ts is their source; written at start). */
export const plans = pgTable(
  "plans",
  {
    id: text("id").primaryKey(),
    product: text("product").notNull(),
    tier: text("tier").notNull(),
    period: text("period").notNull(),
    currency: text("currency").notNull(),
    planId: integer("plan_id").notNull(),
    priceCents: integer("price_cents").notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("plans_offer_key").on(t.product, t.tier, t.period, t.currency)],
);

/** A downgrade (or annual to monthly) waiting for the period end; at most one pending per subscription. */
export const subscriptionChanges = pgTable(
  "subscription_changes",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    subscriptionId: integer("subscription_id")
      .notNull()
      .references(() => subscriptions.id, { onDelete: "cascade" }),
    tier: text("tier").notNull(),
    period: text("period").notNull(),
    effectiveAt: timestamp("effective_at", { withTimezone: true }).notNull(),
    appliedAt: timestamp("applied_at", { withTimezone: true }),
    cancelledAt: timestamp("cancelled_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("subscription_changes_pending_key")
      .on(t.subscriptionId)
      .where(sql`applied_at is null and cancelled_at is null`),
  ],
);

/** Every charge: a purchase, an upgrade or a renewal. The idempotency key makes each one happen once. */
export const payments = pgTable(
  "payments",
  {
    id: text("id").primaryKey(),
    clientId: integer("client_id")
      .notNull()
      .references(() => clients.id, { onDelete: "cascade" }),
    product: text("product").notNull(),
    tier: text("tier").notNull(),
    period: text("period").notNull(),
    currency: text("currency").notNull(),
    kind: text("kind").notNull(),
    amountCents: integer("amount_cents").notNull(),
    creditCents: integer("credit_cents").notNull().default(0),
    newPlanCents: integer("new_plan_cents").notNull(),
    periodStart: timestamp("period_start", { withTimezone: true }).notNull(),
    periodEnd: timestamp("period_end", { withTimezone: true }).notNull(),
    /** The plan this payment replaces (upgrades), for the invoice's credit line. */
    fromTier: text("from_tier"),
    fromPeriod: text("from_period"),
    /** Taken from the account balance before the card (reserved while the payment is open). */
    balanceUsedCents: integer("balance_used_cents").notNull().default(0),
    /** Credit above the new plan's part, carried to the account balance when the payment succeeds. */
    balanceAddedCents: integer("balance_added_cents").notNull().default(0),
    /** Up in tier and down in period: the period change scheduled at the period end on success. */
    thenTier: text("then_tier"),
    thenPeriod: text("then_period"),
    /** When the quote this payment honours was shown (its figures are those of that moment). */
    quotedAt: timestamp("quoted_at", { withTimezone: true }),
    status: text("status").notNull().default("pending"),
    failureCode: text("failure_code"),
    idempotencyKey: text("idempotency_key").notNull(),
    /** A hash of the request the key was first used with: the same key with another request is refused. */
    requestHash: text("request_hash").notNull(),
    provider: text("provider").notNull(),
    providerRef: text("provider_ref"),
    redirectUrl: text("redirect_url"),
    language: text("language").notNull().default("en"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("payments_idempotency_key").on(t.clientId, t.idempotencyKey),
    index("payments_status_idx").on(t.status, t.createdAt),
  ],
);

/** The account balance's movements (PRODUCT.md "Never a negative charge"): the balance is their sum. */
export const balanceEntries = pgTable(
  "balance_entries",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    clientId: integer("client_id")
      .notNull()
      .references(() => clients.id, { onDelete: "cascade" }),
    currency: text("currency").notNull(),
    /** Positive: credit carried to the balance; negative: used on a charge. */
    amountCents: integer("amount_cents").notNull(),
    /** The payment that moved it (null for a credit given by hand); once per payment and reason. */
    paymentId: text("payment_id"),
    reason: text("reason").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("balance_entries_payment_reason_key").on(t.paymentId, t.reason),
    index("balance_entries_client_idx").on(t.clientId, t.currency),
  ],
);

/** Quotes shown on a confirm screen: a checkout naming one within 30 minutes pays its figures. */
export const billingQuotes = pgTable("billing_quotes", {
  id: text("id").primaryKey(),
  clientId: integer("client_id")
    .notNull()
    .references(() => clients.id, { onDelete: "cascade" }),
  requestHash: text("request_hash").notNull(),
  quotedAt: timestamp("quoted_at", { withTimezone: true }).notNull(),
});

/** Money given back (a payment that arrived for a plan the client already had). */
export const refunds = pgTable("refunds", {
  id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
  paymentId: text("payment_id")
    .notNull()
    .unique()
    .references(() => payments.id, { onDelete: "cascade" }),
  amountCents: integer("amount_cents").notNull(),
  reason: text("reason").notNull(),
  providerRef: text("provider_ref"),
  createdAt: createdAt(),
});

/** The last invoice number issued per year: numbers have no gaps because they are taken in the charge's transaction. */
export const invoiceCounters = pgTable("invoice_counters", {
  year: integer("year").primaryKey(),
  last: integer("last").notNull(),
});

/** One invoice per charge (and one per refund), with the client's invoice info as it was then. */
export const invoices = pgTable(
  "invoices",
  {
    number: text("number").primaryKey(),
    year: integer("year").notNull(),
    seq: integer("seq").notNull(),
    clientId: integer("client_id")
      .notNull()
      .references(() => clients.id, { onDelete: "cascade" }),
    paymentId: text("payment_id")
      .notNull()
      .references(() => payments.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    currency: text("currency").notNull(),
    totalCents: integer("total_cents").notNull(),
    vatCents: integer("vat_cents").notNull(),
    lines: jsonb("lines").notNull(),
    info: jsonb("info").notNull(),
    issuedAt: timestamp("issued_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("invoices_year_seq_key").on(t.year, t.seq),
    uniqueIndex("invoices_payment_kind_key").on(t.paymentId, t.kind),
    index("invoices_client_idx").on(t.clientId),
  ],
);

/** Events received from payment providers: stored once by id, applied once. */
export const billingEvents = pgTable("billing_events", {
  id: text("id").primaryKey(),
  provider: text("provider").notNull(),
  type: text("type").notNull(),
  paymentId: text("payment_id"),
  payload: jsonb("payload").notNull(),
  outcome: text("outcome").notNull(),
  receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The sandbox provider's own books (it plays an outside payment service): its checkouts and
 * off-session charges, and the cards it keeps for renewals.
 */
export const sandboxPayments = pgTable("sandbox_payments", {
  id: text("id").primaryKey(),
  idempotencyKey: text("idempotency_key").notNull().unique(),
  reference: text("reference").notNull(),
  amountCents: integer("amount_cents").notNull(),
  currency: text("currency").notNull(),
  description: text("description").notNull(),
  returnUrl: text("return_url"),
  language: text("language").notNull().default("en"),
  status: text("status").notNull(),
  failureCode: text("failure_code"),
  cardToken: text("card_token"),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const sandboxCards = pgTable("sandbox_cards", {
  token: text("token").primaryKey(),
  last4: text("last4").notNull(),
  behaviour: text("behaviour").notNull(),
  createdAt: createdAt(),
});

/** Sessions: only a hash of each opaque token is stored. */
export const sessions = pgTable(
  "sessions",
  {
    tokenHash: text("token_hash").primaryKey(),
    clientId: integer("client_id")
      .notNull()
      .references(() => clients.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (t) => [index("sessions_client_idx").on(t.clientId)],
);

/** Single-use tokens sent by email (confirmation, password recovery); stored hashed. */
export const emailTokens = pgTable(
  "email_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    clientId: integer("client_id")
      .notNull()
      .references(() => clients.id, { onDelete: "cascade" }),
    purpose: text("purpose").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index("email_tokens_client_idx").on(t.clientId, t.purpose)],
);

/** Email that was not sent through SMTP (none configured): listed by the development outbox page. */
export const outbox = pgTable("outbox", {
  id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
  to: text("to").notNull(),
  subject: text("subject").notNull(),
  text: text("text").notNull(),
  purpose: text("purpose").notNull(),
  createdAt: createdAt(),
});

/** Failed sign-in counters per account and per address, in fixed windows (shared by every instance). */
export const loginAttempts = pgTable("login_attempts", {
  key: text("key").primaryKey(),
  windowStart: timestamp("window_start", { withTimezone: true }).notNull(),
  failures: integer("failures").notNull(),
});

/** Requests counted per key (account or address) in fixed windows: the rate limits of the API, shared by every instance. */
export const rateLimits = pgTable("rate_limits", {
  key: text("key").primaryKey(),
  windowStart: timestamp("window_start", { withTimezone: true }).notNull(),
  hits: integer("hits").notNull(),
});

/** Proof-of-work challenges already used, so a solution cannot be replayed. */
export const usedChallenges = pgTable("used_challenges", {
  signature: text("signature").primaryKey(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
});

/** Billing details of a client (specification: invoice info). */
export const invoiceInfo = pgTable("invoice_info", {
  clientId: integer("client_id")
    .primaryKey()
    .references(() => clients.id, { onDelete: "cascade" }),
  name: text("name").notNull().default(""),
  country: text("country").notNull().default(""),
  tin: text("tin").notNull().default(""),
  city: text("city").notNull().default(""),
  address: text("address").notNull().default(""),
  postalCode: text("postal_code").notNull().default(""),
  companyName: text("company_name").notNull().default(""),
  company: boolean("company").notNull().default(false),
  updatedAt: updatedAt(),
});

/**
 * Saved portfolios of a client, per product (docs/portfolios.md). Holdings are valued from the
 * closes of `priced_on` (the market day of the save or of the last edition); `growth` chains the
 * return of the holdings before the last edition (time-weighted return since saving).
 */
export const portfolios = pgTable(
  "portfolios",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    clientId: integer("client_id")
      .notNull()
      .references(() => clients.id, { onDelete: "cascade" }),
    product: text("product").notNull(),
    name: text("name").notNull(),
    currency: text("currency").notNull().default("EUR"),
    benchmark: integer("benchmark").notNull().default(5),
    /**
     * The index or fund the portfolio's past is compared with (docs/portfolios.md, "Past
     * performance"); null: the market of its currency.
     */
    benchmarkSeries: text("benchmark_series"),
    monkeyRegion: text("monkey_region"),
    saved: boolean("saved").notNull().default(false),
    version: integer("version").notNull().default(1),
    totalInvested: doublePrecision("total_invested").notNull().default(0),
    initialInvested: doublePrecision("initial_invested").notNull().default(0),
    maxAssetsLevel: integer("max_assets_level"),
    /** Null: unlimited. */
    remainingEditions: integer("remaining_editions"),
    /** The wizard answers the portfolio came from (WizardAnswers), if any. */
    answers: jsonb("answers"),
    pricedOn: date("priced_on", { mode: "string" }),
    growth: doublePrecision("growth").notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("portfolios_client_idx").on(t.clientId, t.product)],
);

/** Holdings of a portfolio: the amount invested in each asset, in the portfolio currency. */
export const portfolioAssets = pgTable(
  "portfolio_assets",
  {
    portfolioId: integer("portfolio_id")
      .notNull()
      .references(() => portfolios.id, { onDelete: "cascade" }),
    symbol: text("symbol")
      .notNull()
      .references(() => assets.symbol),
    investedAmount: doublePrecision("invested_amount").notNull(),
    /** Whole shares (banana portfolios, bought at the close of the portfolio's priced_on). */
    shares: integer("shares"),
    position: integer("position").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.portfolioId, t.symbol] }),
    index("portfolio_assets_symbol_idx").on(t.symbol),
  ],
);

/** One valuation per saved portfolio and market day (monitoring and the community percentile). */
export const portfolioValuations = pgTable(
  "portfolio_valuations",
  {
    portfolioId: integer("portfolio_id")
      .notNull()
      .references(() => portfolios.id, { onDelete: "cascade" }),
    date: date("date", { mode: "string" }).notNull(),
    value: doublePrecision("value").notNull(),
    return: doublePrecision("return").notNull(),
    risk: doublePrecision("risk").notNull(),
    score: doublePrecision("score").notNull(),
    communityPercentile: doublePrecision("community_percentile"),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.portfolioId, t.date] }),
    index("portfolio_valuations_date_idx").on(t.date),
  ],
);

/** Instruments of the market (the CSV format's assets.csv), real or simulated. */
export const assets = pgTable(
  "assets",
  {
    symbol: text("symbol").primaryKey(),
    name: text("name").notNull(),
    kind: text("kind").notNull(),
    universe: text("universe").notNull(),
    exchange: text("exchange"),
    assetClass: text("asset_class"),
    region: text("region"),
    country: text("country"),
    currency: text("currency").notNull(),
    sector: text("sector"),
    sourceId: text("source_id").notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [index("assets_universe_idx").on(t.universe)],
);

/** End-of-day closes, adjusted for splits and dividends (yields in percent for kind `rate`). */
export const prices = pgTable(
  "prices",
  {
    symbol: text("symbol")
      .notNull()
      .references(() => assets.symbol, { onDelete: "cascade" }),
    date: date("date", { mode: "string" }).notNull(),
    close: doublePrecision("close").notNull(),
  },
  (t) => [primaryKey({ columns: [t.symbol, t.date] })],
);

/** Macro series (CPI, rates, monthly FX and gold) by date. */
export const macroValues = pgTable(
  "macro_values",
  {
    series: text("series").notNull(),
    date: date("date", { mode: "string" }).notNull(),
    value: doublePrecision("value").notNull(),
  },
  (t) => [primaryKey({ columns: [t.series, t.date] })],
);

/**
 * The banana challenge (docs/banana.md): a simMonk portfolio's region, creation day, the seed of
 * its monkeys, the universe they were drawn from (symbols and closes of the creation day), its
 * monkey, and its latest return for the ranking (null until the portfolio is 1 day old).
 */
export const bananaPortfolios = pgTable(
  "banana_portfolios",
  {
    portfolioId: integer("portfolio_id")
      .primaryKey()
      .references(() => portfolios.id, { onDelete: "cascade" }),
    region: text("region").notNull(),
    createdOn: date("created_on", { mode: "string" }).notNull(),
    seed: integer("seed").notNull(),
    /** [{ symbol, price }] of the creation day, in symbol order. */
    universe: jsonb("universe").notNull(),
    /** [{ symbol, shares, price }]: monkey number 0 of the seed. */
    monkey: jsonb("monkey").notNull(),
    latestDate: date("latest_date", { mode: "string" }),
    rankingReturn: doublePrecision("ranking_return"),
    /** Position in the region's ranking (1 = best), numbered after each valuation run. */
    rankingPosition: integer("ranking_position"),
  },
  (t) => [
    index("banana_portfolios_ranking_idx").on(
      t.region,
      sql`${t.rankingReturn} desc nulls last`,
      t.portfolioId,
    ),
    index("banana_portfolios_position_idx").on(t.region, t.rankingPosition),
  ],
);

/** One row per banana portfolio and market day: returns against its monkeys and its region's index. */
export const bananaValuations = pgTable(
  "banana_valuations",
  {
    portfolioId: integer("portfolio_id")
      .notNull()
      .references(() => portfolios.id, { onDelete: "cascade" }),
    date: date("date", { mode: "string" }).notNull(),
    value: doublePrecision("value").notNull(),
    return: doublePrecision("return").notNull(),
    monkeyReturn: doublePrecision("monkey_return").notNull(),
    indexReturn: doublePrecision("index_return"),
    percentile: doublePrecision("percentile").notNull(),
    monkeysMean: doublePrecision("monkeys_mean").notNull(),
    /** Monkey returns at the 0th, 5th, ..., 100th percentiles. */
    quantiles: jsonb("quantiles").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.portfolioId, t.date] })],
);

/** One row per client and course section: the best and last quiz score (docs/education.md). */
export const educationProgress = pgTable(
  "education_progress",
  {
    clientId: integer("client_id")
      .notNull()
      .references(() => clients.id, { onDelete: "cascade" }),
    courseId: text("course_id").notNull(),
    sectionId: text("section_id").notNull(),
    bestScore: integer("best_score").notNull(),
    lastScore: integer("last_score").notNull(),
    total: integer("total").notNull(),
    attempts: integer("attempts").notNull().default(1),
    passed: boolean("passed").notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.clientId, t.courseId, t.sectionId] })],
);

/**
 * The answers of calls that create something, by their Idempotency-Key (docs/api.md, "Repeated
 * calls"): per account (`client:<id>`) or, for a call without a session, per address
 * (`address:<key>`). A row without a status is a call still running; the primary key makes two
 * concurrent calls with one key run once.
 */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    scope: text("scope").notNull(),
    key: text("key").notNull(),
    /** A hash of the method, path, query and body: the same key with another call is refused. */
    fingerprint: text("fingerprint").notNull(),
    status: integer("status"),
    response: text("response"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    completedAt: timestamp("completed_at", { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.scope, t.key] }),
    index("idempotency_keys_created_idx").on(t.createdAt),
  ],
);
