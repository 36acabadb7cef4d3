import type { AnyStateMachine, EventObject } from "xstate";
import { dataLoadMachine } from "./data-load.machine.ts";
import { routeGuardNames, routeGuards } from "./guards/route-guards.ts";
import { signedOutFacts } from "./guards/access-facts.ts";
import { routeAccessMachine } from "./route-access.machine.ts";
import { versionCheckMachine } from "./version-check.machine.ts";
import { formSubmitMachine } from "./form-submit.machine.ts";
import { policyGateMachine } from "./policy-gate.machine.ts";
import { recaptchaErrors, recaptchaLoadMachine } from "./recaptcha-load.machine.ts";
import { sessionMachine, SessionFailure } from "./session.machine.ts";
import { signUpMachine } from "./sign-up.machine.ts";
import { portfolioWizardMachine } from "./portfolio-wizard.machine.ts";
import { portfolioLifecycleMachine } from "./portfolio-lifecycle.machine.ts";
import { subscriptionMachine } from "./subscription.machine.ts";
import { educationMachine } from "./education.machine.ts";
import {
  demoSimulation,
  demoSimulatorSources,
  investmentSimulatorMachine,
} from "./investment-simulator.machine.ts";
import { optimiseMachine } from "./optimise.machine.ts";
import { bananaMachine, demoBananaPortfolio, demoBananaUniverse } from "./banana.machine.ts";
import { whatIfMachine } from "./what-if.machine.ts";
import { liveRiskMachine } from "./live-risk.machine.ts";
import {
  demoInvoiceInfo,
  demoOverview,
  demoPayment,
  demoQuote,
  downgradeQuote,
  upgradeSelection,
} from "./subscription.fixtures.ts";
import { permissionsFor } from "../src/contract/permissions.ts";
import { CURRENCY_UNDEFINED_MESSAGE } from "../src/contract/portfolio-rules.ts";
import type { Portfolio, ProposeResponse } from "../src/contract/portfolios.ts";

/** What the documents and the path tests need to know about a machine. */
export interface MachineEntry {
  readonly machine: AnyStateMachine;
  readonly title: string;
  /** Each guard (as it appears in the chart) and the rule of the specification it mirrors. */
  readonly guards: Readonly<Record<string, string>>;
  /** Input for a representative actor. */
  readonly input?: unknown;
  /** Events to explore for paths; internal events (done, error, after) must be listed here. */
  readonly pathEvents: readonly (EventObject & Record<string, unknown>)[];
}

const guestFacts = signedOutFacts("ht", "simAssets");

const demoSession = { expiry: "2030-01-01T00:00:00.000Z" };
const signUpForm = {
  name: "Ada",
  surname: "Lovelace",
  email: "ada@example.com",
  password: "Analytical-Engine-1843",
  confirmPassword: "Analytical-Engine-1843",
  countryId: "GB",
  newsletter: false,
  policies: true as const,
  language: "en" as const,
};

const demoProposal: ProposeResponse = {
  currency: "EUR",
  assets: [
    { symbol: "SAN.MC", name: "Banco Santander", investedAmount: 6000, percentage: 60 },
    { symbol: "ITX.MC", name: "Inditex", investedAmount: 4000, percentage: 40 },
  ],
  method: "equal",
  var95Amount: 620,
  cvar95Amount: 810,
  withinMaxToLose: true,
  minimumDesiredRiskAmount: 110,
  simulated: true,
};

const demoAsset = (id: string, name: string, investedAmount: number) => ({
  id,
  name,
  investedAmount,
  percentage: investedAmount / 100,
  volatilities: { 1: 0.2, 2: 0.2, 3: 0.2, 4: 0.2, 5: 0.2, 6: 0.2 },
  currency: "EUR",
  stale: false,
});

const demoPortfolio: Portfolio = {
  id: 7,
  name: "Iberia",
  product: "simAssets",
  currency: "EUR",
  benchmark: 5,
  benchmarkSeries: null,
  assets: [
    {
      stockExchange: "Madrid",
      stockExchangeId: "MC",
      assetClass: null,
      assetClassId: null,
      position: 1,
      assets: [demoAsset("SAN.MC", "Banco Santander", 6000), demoAsset("ITX.MC", "Inditex", 4000)],
    },
  ],
  totalInvested: 10000,
  initialInvested: 10000,
  maxAssetsLevel: 2,
  saved: true,
  remainingEditions: 3,
  monkeyRegion: null,
  answers: null,
  version: 1,
  createdAt: "2025-01-02T10:00:00.000Z",
  updatedAt: "2025-01-02T10:00:00.000Z",
  valuation: null,
};

/** An optimal answer of the optimise call, for the optimise machine's paths. */
const demoOptimalAnswer = {
  status: "optimal",
  method: "minimum-risk",
  currency: "EUR",
  window: { benchmark: 5, from: "2023-11-20", to: "2026-11-20", limitedBy: [], simulated: true },
  assets: [
    { symbol: "SAN.MC", weight: 0.45, amount: 4500, currentWeight: 0.6 },
    { symbol: "ITX.MC", weight: 0.55, amount: 5500, currentWeight: 0.4 },
  ],
  volatility: 0.05,
  var95: 0.07,
  cvar95: 0.09,
  var95Amount: 700,
  cvar95Amount: 900,
  expectedReturn: 0.06,
  current: {
    volatility: 0.055,
    var95: 0.08,
    cvar95: 0.1,
    var95Amount: 800,
    cvar95Amount: 1000,
    expectedReturn: 0.065,
  },
  frontier: [
    { volatility: 0.05, expectedReturn: 0.06 },
    { volatility: 0.07, expectedReturn: 0.08 },
  ],
  gap: 0,
} as const;

export const machineRegistry: readonly MachineEntry[] = [
  {
    machine: routeAccessMachine,
    title: "Route access (route guards)",
    guards: {
      awaitsSession: "A guard of the route needs the session, which is still being restored.",
      staysUndecided:
        "Once a route is allowed, a session that is reloading (e.g. after a new token) keeps it rendered.",
      samePerson:
        "Once a route is allowed, a change of the portfolio under it keeps it rendered: portfolio-creation and portfolio-created are conditions of entering the route (an adopted optimisation ends its edition on the summary, which then goes to the saved portfolio). A change of session, account, product or edition is checked again.",
      ...Object.fromEntries(
        routeGuardNames.map((g) => [`deniedBy(${g})`, `${g}: ${routeGuards[g].rule}`]),
      ),
    },
    input: {
      guards: ["auth-registered", "portfolio-creation", "subscribed"],
      facts: { ...guestFacts, session: "unknown" },
    },
    pathEvents: [
      { type: "facts.changed", facts: guestFacts },
      {
        type: "facts.changed",
        facts: {
          ...guestFacts,
          session: "signedIn",
          account: {
            kind: "standard",
            trial: false,
            subscribedProducts: [],
            bananaPermission: false,
            policiesAccepted: true,
          },
        },
      },
      {
        type: "facts.changed",
        facts: {
          ...guestFacts,
          session: "signedIn",
          creationInProgress: true,
          account: {
            kind: "standard",
            trial: false,
            subscribedProducts: ["simAssets"],
            bananaPermission: false,
            policiesAccepted: true,
          },
        },
      },
      {
        // The edition under the allowed route ended (an adopted optimisation).
        type: "facts.changed",
        facts: {
          ...guestFacts,
          session: "signedIn",
          account: {
            kind: "standard",
            trial: false,
            subscribedProducts: ["simAssets"],
            bananaPermission: false,
            policiesAccepted: true,
          },
        },
      },
    ],
  },
  {
    machine: versionCheckMachine,
    title: "New version check",
    guards: {
      isNewBuild:
        "builds/latest.json names another build than the running one (poll every 10 seconds).",
    },
    input: { currentBuild: "build-1" },
    pathEvents: [
      { type: "xstate.after.pollInterval.versionCheck.waiting" },
      { type: "xstate.done.actor.fetchLatestBuild", output: "build-1" },
      { type: "xstate.done.actor.fetchLatestBuild", output: "build-2" },
      { type: "xstate.error.actor.fetchLatestBuild", error: new Error("offline") },
      { type: "version.reload" },
      { type: "version.dismiss" },
    ],
  },
  {
    machine: dataLoadMachine,
    title: "Data loading",
    guards: {},
    pathEvents: [
      { type: "xstate.done.actor.load", output: { ok: true } },
      { type: "xstate.error.actor.load", error: new Error("offline") },
      { type: "data.retry" },
      { type: "data.refresh" },
    ],
  },
  {
    machine: sessionMachine,
    title: "Session and sign-out",
    guards: {
      hasStoredSession:
        "The auth cookie (the session's expiry) from an earlier visit exists and has not expired.",
      isUnauthorized:
        "The API answered 401: the session is dead, so it ends and the user goes to sign-in.",
    },
    pathEvents: [
      { type: "xstate.done.actor.restoreSession", output: null },
      { type: "xstate.done.actor.restoreSession", output: demoSession },
      { type: "session.signIn", credentials: { email: "ada@example.com", password: "pw" } },
      { type: "xstate.done.actor.signIn", output: demoSession },
      { type: "xstate.error.actor.signIn", error: new SessionFailure("INVALID_CREDENTIALS") },
      { type: "xstate.done.actor.fetchClient", output: null },
      { type: "xstate.error.actor.fetchClient", error: new SessionFailure("UNAUTHORIZED") },
      { type: "session.signOut" },
      { type: "xstate.done.actor.goToIndex" },
      { type: "session.unauthorized" },
      { type: "session.started", session: demoSession },
    ],
  },
  {
    machine: policyGateMachine,
    title: "Policy gate",
    guards: {
      mustAccept:
        "ht edition, signed in, not an HT account, and the current policy version not accepted.",
      acceptedNow:
        "The signed-in user has now accepted the current policy: back to the remembered path.",
    },
    pathEvents: [
      {
        type: "facts.changed",
        path: "/en/markets",
        facts: { edition: "ht", signedIn: true, kind: "standard", policiesAccepted: false },
      },
      {
        type: "facts.changed",
        path: "/en/markets",
        facts: { edition: "ht", signedIn: true, kind: "standard", policiesAccepted: true },
      },
      {
        type: "facts.changed",
        path: "/en/markets",
        facts: { edition: "ht", signedIn: true, kind: "HT", policiesAccepted: false },
      },
      { type: "policies.accepted" },
    ],
  },
  {
    machine: signUpMachine,
    title: "Sign-up",
    guards: {
      passwordsMatch:
        'The password and its confirmation must match; otherwise nothing is sent and "Passwords don\'t match" is logged.',
      passwordStrongEnough:
        "The password is at least Medium (8 characters and two kinds of character).",
    },
    pathEvents: [
      { type: "signUp.submit", form: signUpForm },
      { type: "signUp.submit", form: { ...signUpForm, confirmPassword: "different" } },
      {
        type: "signUp.submit",
        form: { ...signUpForm, password: "short", confirmPassword: "short" },
      },
      { type: "xstate.done.actor.register" },
      { type: "xstate.error.actor.register", error: new SessionFailure("CAPTCHA_FAILED") },
      { type: "signUp.edit" },
    ],
  },
  {
    // Explored as in a browser whose script is ready after one poll; the key "outside-browser"
    // stands for a call made outside a browser.
    machine: recaptchaLoadMachine.provide({
      guards: {
        isBrowser: ({ event }) => event.siteKey !== "outside-browser",
        isReady: ({ context }) => context.waitedMs >= 25,
      },
    }),
    title: "reCAPTCHA load",
    guards: {
      isBrowser: `Runs only in a browser; elsewhere loading fails with "${recaptchaErrors.notBrowser}".`,
      isReady: "The script has loaded and grecaptcha is ready (checked every 25 ms).",
      differentKey: `Already loading or loaded with another site key: "${recaptchaErrors.differentKey}".`,
      timedOut: "The script was not ready after 15 seconds.",
    },
    pathEvents: [
      { type: "recaptcha.load", siteKey: "key-a" },
      { type: "recaptcha.load", siteKey: "key-b" },
      { type: "recaptcha.load", siteKey: "outside-browser" },
      { type: "xstate.after.poll.recaptchaLoad.loading" },
    ],
  },
  {
    machine: liveRiskMachine,
    title: "Live risk (the portfolio being edited)",
    guards: {
      nothingHeld: "No holding has an amount above zero: there is nothing to measure.",
    },
    pathEvents: [
      {
        type: "holdings.change",
        input: { currency: "EUR", assets: [{ id: "SAN.MC", investedAmount: 6000 }] },
      },
      { type: "holdings.change", input: { currency: "EUR", assets: [] } },
      { type: "xstate.after.pause.liveRisk.waiting" },
      {
        type: "xstate.done.actor.measure",
        output: { volatility: { annual: 0.2 }, var: { historical: { varAmount: 500 } } },
      },
      { type: "xstate.error.actor.measure", error: new SessionFailure("NETWORK_ERROR") },
    ],
  },
  {
    machine: formSubmitMachine,
    title: "Form submit",
    guards: {},
    pathEvents: [
      { type: "form.submit", values: { email: "ada@example.com" } },
      { type: "xstate.done.actor.submit", output: { status: "accepted" } },
      { type: "xstate.error.actor.submit", error: new SessionFailure("INVALID_TOKEN") },
      { type: "form.edit" },
    ],
  },
  {
    machine: portfolioWizardMachine,
    title: "Portfolio creation wizard",
    guards: {
      currencyDefined: `q1: the portfolio has a currency (EUR or USD); otherwise "${CURRENCY_UNDEFINED_MESSAGE}" (CURRENCY_UNDEFINED, section 8).`,
      amountWithinBounds:
        "q1: the amount is above the minimum and not above the maximum investment (sections 5 and 9; 0 and 5,000,000 by default).",
      lazyPortfoliosAllowed:
        "q1: a lazy portfolio is chosen, in the second edition (tt) and with the lazyPortfolios permission (section 5): q2 and q3 are skipped.",
      lazyPortfolioChosen:
        "q1: a lazy portfolio chosen outside tt or without the lazyPortfolios permission is refused (LAZY_NOT_ALLOWED).",
      lazyTotalAllowed:
        "Section 5, lazy portfolio in the second edition: the total must not exceed the max investment (lazyTotalAllowed).",
      maxToLoseValid:
        "q2: maxToLose95 is not said (null) or above 0; below the minimum desired risk (1.1% EUR, 1.74% USD) it is kept and maxToLoseBelowMinimum explains it (section 5).",
      orderingAllowed:
        "q3: the ordering is behind its permission (orderByMarketRisk, orderByExpectedReturn, orderByRiskReturn, minimization; balanced always; orderingAllowed).",
      assetLevelOffered:
        "q3: maxAssetsLevel is one the permission's maxAssets allows (offeredAssetLevels; section 9 level counts).",
      autoCreate:
        "The autoCreate permission: the engine weights the proposal (the server reads the permission from the session); without it the proposal is also made, and the user adjusts it.",
      viaLazyPortfolio: "The proposal came from a lazy portfolio: back and failures return to q1.",
      composable:
        "Section 5: asset count within 1 and min(max of the level, the permission's maxAssets) (50 for simMonk), total above the minimum and not above the maximum; a portfolio without a currency is refused (compositionProblem).",
      "pageIs(q1)":
        "The page of q1 opened on a later step (the browser's back button, a link, a reload): the wizard steps back to q1.",
      "pageIs(q2)": "The page of q2 opened on a later step: the wizard steps back to q2.",
      "pageIs(q3)": "The page of q3 opened on the summary: the wizard steps back to q3.",
      lazyPageBeforeSummary:
        "A question's page opened on a lazy portfolio's summary (q2 and q3 were skipped): the wizard goes back to q1.",
    },
    input: {
      product: "simAssets",
      edition: "tt",
      permissions: permissionsFor("simAssets", "advanced"),
      answers: { amount: 10000 },
    },
    pathEvents: [
      { type: "q1.change", answers: { amount: 10000, currency: "EUR" } },
      { type: "next" },
      { type: "back" },
      { type: "q2.change", maxToLose95: 500 },
      { type: "q3.change", answers: { ordering: "marketRisk", maxAssetsLevel: 2 } },
      { type: "xstate.done.actor.propose", output: demoProposal },
      { type: "xstate.error.actor.propose", error: new SessionFailure("ANALYTICS_FAILED") },
      { type: "amount.change", id: "ITX.MC", investedAmount: 5000 },
      { type: "asset.add", id: "BBVA.MC", name: "BBVA", investedAmount: 1000 },
      { type: "asset.remove", id: "SAN.MC" },
      { type: "save" },
      { type: "cancel" },
    ],
  },
  {
    machine: portfolioLifecycleMachine,
    title: "Portfolio lifecycle (save and edit)",
    guards: {
      hasSavedPortfolio:
        "A saved portfolio was opened (my portfolios): the lifecycle starts saved.",
      canSave:
        "Section 6: the save permission, an unsaved portfolio and being under the limit (saveLimit; saveLimitPerRegion for simMonk) (saveProblem).",
      draftComposable:
        "Section 5: the composed portfolio has a currency, 1 to max assets and a total above the minimum and not above the maximum (compositionProblem).",
      canEdit:
        "Section 4: editing is allowed with the edit permission while remainingEditions is null or above 0 (editProblem).",
      canSubmit:
        "Section 5, editing a saved portfolio: editing permitted, editions left, the composition valid, total not below the minimum nor above the maximum (editProblem).",
      canDelete: "The management.delete permission.",
      canExport: "The management.export permission.",
      isConflict:
        "The portfolio was changed since it was read (412 PORTFOLIO_CONFLICT): reload or discard.",
      valuationArrived:
        "Issue 23: a save is answered once committed and its first valuation follows; the portfolio read again has it (only the valuation is taken).",
    },
    input: {
      product: "simAssets",
      permissions: permissionsFor("simAssets", "standard"),
      savedCount: 0,
      draft: {
        currency: "EUR",
        maxAssetsLevel: 2,
        assets: [
          { id: "SAN.MC", name: "Banco Santander", investedAmount: 6000 },
          { id: "ITX.MC", name: "Inditex", investedAmount: 4000 },
        ],
      },
    },
    pathEvents: [
      { type: "save", name: "Iberia" },
      { type: "xstate.done.actor.savePortfolio", output: demoPortfolio },
      { type: "xstate.error.actor.savePortfolio", error: new SessionFailure("SAVE_LIMIT_REACHED") },
      { type: "edit" },
      { type: "amount.change", id: "ITX.MC", investedAmount: 5000 },
      { type: "asset.add", id: "BBVA.MC", name: "BBVA", investedAmount: 1000 },
      { type: "asset.remove", id: "BBVA.MC" },
      { type: "reset", ids: ["ITX.MC"] },
      { type: "submit" },
      { type: "xstate.done.actor.updatePortfolio", output: { ...demoPortfolio, version: 2 } },
      {
        type: "xstate.error.actor.updatePortfolio",
        error: new SessionFailure("PORTFOLIO_CONFLICT"),
      },
      { type: "xstate.error.actor.updatePortfolio", error: new SessionFailure("INTERNAL_ERROR") },
      { type: "reload" },
      { type: "xstate.done.actor.loadPortfolio", output: { ...demoPortfolio, version: 3 } },
      { type: "xstate.error.actor.loadPortfolio", error: new SessionFailure("NETWORK_ERROR") },
      { type: "discard" },
      { type: "cancel" },
      { type: "export", format: "csv" },
      { type: "xstate.done.actor.exportPortfolio" },
      { type: "xstate.error.actor.exportPortfolio", error: new SessionFailure("NETWORK_ERROR") },
      { type: "delete" },
      { type: "xstate.done.actor.deletePortfolio" },
      { type: "xstate.error.actor.deletePortfolio", error: new SessionFailure("NETWORK_ERROR") },
    ],
  },
  {
    machine: subscriptionMachine,
    title: "Plans, payments and billing",
    guards: {
      isTtAccount:
        "TT accounts never choose plans, subscribe or pay (PRODUCT.md, People); the route guards keep them out, and nothing is loaded or sold should one get here.",
      resumesPayment:
        "The provider sent the browser back to payment-complete with ?payment={id}: its result is polled.",
      isSignedIn: "Only a signed-in client has plans and invoices; guests see the plans on sale.",
      hasSelection:
        "subscribe/confirm: a product, tier, period and currency came in the query string.",
      isInvalidPlan:
        "Section 4: a tier the product does not sell (paid tiers standard and advanced; simIndices has no standard), a period other than monthly or annual, or a currency other than EUR or USD is invalid.",
      isCurrentPlan: "Section 4: the same tier and period as the current paid plan.",
      isUpgradeQuote:
        "The server's quote says upgrade: a higher tier (tiers in order per product), or monthly to annual; paid now, prorated.",
      isDowngradeQuote:
        "The server's quote says downgrade: a lower tier, or annual to monthly; scheduled for the end of the period, nothing charged now.",
      isCurrentQuote: "The server's quote says it is the current plan.",
      isQuoteExpired:
        "PRODUCT.md What is confirmed is charged: the checkout names a quote older than 30 minutes (QUOTE_EXPIRED); the new figure is quoted and shown, and confirmed again.",
      isStaleChange:
        "The confirm screen is stale (PLAN_CURRENT or PLAN_IS_DOWNGRADE: the plan was bought meanwhile, e.g. in another tab): billing is reloaded and the plan the person has is shown, with nothing to retry.",
      mayBuy: "Not a TT account (PRODUCT.md, People and their kinds).",
      canCheckout:
        "Not a TT account, and the invoice info has a name and an ISO country (and a company name for a company); otherwise INVOICE_INFO_REQUIRED.",
      needsRedirect:
        "The payment is pending or asks for authentication and names the provider's page: the browser goes there.",
      paymentSucceeded: "The payment succeeded: the plan and its permissions apply at once.",
      paymentNeedsAction:
        "requires_action: the card asks for the sandbox challenge page (approve or fail).",
      paymentFailed:
        "failed or cancelled: declined, insufficient funds, authentication failed, abandoned, expired or superseded.",
      mayRetry:
        "A failed payment may be tried again for the same plan, with a new idempotency key (a new attempt).",
      canCancel: "A paid plan that renews (active or past due, not cancelled) can be cancelled.",
      canReactivate: "A cancelled plan can be reactivated before its expiry date.",
      hasScheduledChange: "A downgrade is scheduled for the period end: it can be undone.",
      canStartTrial:
        "PRODUCT.md Trial: ht edition, a product on the free tier, and the account's one 14-day trial still available.",
    },
    input: { edition: "ht", kind: "standard" },
    pathEvents: [
      {
        type: "xstate.done.actor.loadBilling",
        output: { overview: demoOverview, invoiceInfo: demoInvoiceInfo },
      },
      { type: "xstate.error.actor.loadBilling", error: new SessionFailure("NETWORK_ERROR") },
      { type: "billing.retry" },
      { type: "plan.choose", selection: upgradeSelection },
      {
        type: "plan.choose",
        selection: { ...upgradeSelection, tier: "standard", period: "annual" },
      },
      { type: "plan.choose", selection: { ...upgradeSelection, tier: "premium" } },
      { type: "xstate.done.actor.quote", output: demoQuote() },
      { type: "xstate.done.actor.quote", output: downgradeQuote },
      { type: "xstate.done.actor.quote", output: demoQuote({ change: "current" }) },
      { type: "xstate.done.actor.quote", output: demoQuote({ change: "invalid" }) },
      { type: "invoiceInfo.change", info: { name: "Ada Lovelace" } },
      { type: "plan.confirm" },
      { type: "xstate.done.actor.scheduleChange", output: demoOverview },
      { type: "xstate.done.actor.saveInvoiceInfo", output: demoInvoiceInfo },
      {
        type: "xstate.done.actor.checkout",
        output: { payment: demoPayment(), quote: demoQuote() },
      },
      {
        type: "xstate.done.actor.checkout",
        output: { payment: demoPayment({ redirectUrl: null }), quote: demoQuote() },
      },
      { type: "xstate.error.actor.checkout", error: new SessionFailure("PAYMENT_IN_PROGRESS") },
      { type: "xstate.error.actor.checkout", error: new SessionFailure("QUOTE_EXPIRED") },
      { type: "xstate.error.actor.checkout", error: new SessionFailure("PLAN_CURRENT") },
      { type: "xstate.done.actor.fetchPayment", output: demoPayment() },
      {
        type: "xstate.done.actor.fetchPayment",
        output: demoPayment({
          status: "succeeded",
          redirectUrl: null,
          invoiceNumber: "2026-000002",
        }),
      },
      {
        type: "xstate.done.actor.fetchPayment",
        output: demoPayment({
          status: "requires_action",
          redirectUrl: "/api/billing/sandbox/challenge/pay_0001",
        }),
      },
      {
        type: "xstate.done.actor.fetchPayment",
        output: demoPayment({ status: "failed", failureCode: "card_declined", redirectUrl: null }),
      },
      { type: "xstate.after.pollInterval.subscription.awaitingResult.waiting" },
      { type: "xstate.after.pollTimeout.subscription.awaitingResult" },
      { type: "payment.check" },
      { type: "payment.authenticate" },
      { type: "payment.retry" },
      { type: "payment.cancel" },
      { type: "subscription.cancel", product: "simAssets" },
      { type: "cancel.keep" },
      { type: "cancel.confirm" },
      { type: "xstate.done.actor.cancelSubscription", output: demoOverview },
      { type: "subscription.reactivate", product: "simMonk" },
      { type: "xstate.done.actor.reactivateSubscription", output: demoOverview },
      { type: "change.undo", product: "simAssets" },
      { type: "xstate.done.actor.cancelScheduledChange", output: demoOverview },
      { type: "trial.start", product: "simIndices" },
      { type: "xstate.done.actor.startTrial", output: demoOverview },
    ],
  },
  {
    machine: whatIfMachine,
    title: "What-if: custom shocks, real scenarios and backtests",
    guards: {
      isLocked:
        "Section 3 whatIf permissions: custom shocks need marketScenarios, a real scenario realLifeScenarios, a backtest backTesting (the server's whatIfPermission of the kind chosen by section 4's priority: backtest, then real scenario, then custom).",
      breaksRule:
        "Section 5: a custom what-if needs at least one non-null shock (dRV, dRF, dCrypto, dMMPP, inflation); a real one scenario type 0, 1, 2 or 3; a backtest an id (1y, 3y, 5y, 10y); and there must be a portfolio.",
      isPlanLocked:
        "The server answered 403 PLAN_FEATURE_LOCKED: the plan does not include the kind.",
      portfolioGone: "The portfolio was closed during the run: nothing to run on.",
      portfolioMoved:
        "The portfolio changed during the run: it starts again on the new one, so a result never answers an older portfolio.",
    },
    input: {
      permissions: { marketScenarios: true, realLifeScenarios: false, backTesting: false },
      shocks: { dRV: -20 },
      portfolio: {
        currency: "EUR",
        benchmark: 5,
        assets: [
          { symbol: "SAN.MC", amount: 6000 },
          { symbol: "ITX.MC", amount: 4000 },
        ],
      },
    },
    pathEvents: [
      { type: "shock.set", key: "dRV", percentage: -20 },
      { type: "shocks.clear" },
      { type: "scenario.choose", scenarioType: 1 },
      { type: "backtest.choose", backTesting: "1y" },
      { type: "run" },
      { type: "cancel" },
      { type: "retry" },
      {
        type: "permissions.changed",
        permissions: { marketScenarios: true, realLifeScenarios: true, backTesting: true },
      },
      {
        type: "portfolio.changed",
        portfolio: { currency: "EUR", assets: [{ symbol: "SAN.MC", amount: 7000 }] },
      },
      { type: "portfolio.changed", portfolio: null },
      {
        type: "xstate.done.actor.runWhatIf",
        output: {
          kind: "scenario",
          currency: "EUR",
          scenario: { type: 1, id: "pandemic-2020", start: "2020-02-19", end: "2020-03-23" },
          totalInvested: 10000,
          totalChange: -3100,
          totalReturn: -0.31,
          assets: [],
          factorMoves: {},
          missingFactors: [],
          sensitivities: null,
          sources: [],
          simulated: true,
        },
      },
      { type: "xstate.error.actor.runWhatIf", error: new SessionFailure("PLAN_FEATURE_LOCKED") },
      { type: "xstate.error.actor.runWhatIf", error: new SessionFailure("NETWORK_ERROR") },
    ],
  },
  {
    machine: optimiseMachine,
    title: "Optimisation: o1, o2 and o3, the summary and adopting the result",
    guards: {
      "levelAllowed(1)":
        "Section 3 optimization permissions: o1 (the current assets) needs optimization.portfolio (the server answers 403 PLAN_FEATURE_LOCKED otherwise).",
      "levelAllowed(2)":
        "Section 3: o2 (new assets, kept assets within weights) needs optimization.construction.",
      "levelAllowed(3)":
        "Section 3: o3 (a desired number of assets) needs optimization.constructionFixAssets.",
      canOptimise:
        "Sections 5 and 9, by the function the server enforces (optimisationViolations): the client's level at least 30; the asset count (new assets included) within the plan's maxAssets; at level 3 a desired amount within it; the maximum loss at 95% at least 1.1% (EUR) or 1.74% (USD) of the total, to the cent; and the permission of the level the options imply.",
      "atLevel(1)": "Back to the options of the level chosen (the optimisation state's level 1).",
      "atLevel(2)": "Back to the options of level 2; otherwise level 3.",
      isOptimal:
        "The server found a portfolio; otherwise it names the constraint that cannot be met (e.g. MAX_LOSS_EXCEEDED, CVAR_CAP_INFEASIBLE, BOUNDS_INFEASIBLE).",
      portfolioChanged:
        "The portfolio's composition changed (another key): a running optimisation starts again, a result becomes stale.",
      resultCurrent:
        "Only a result computed for the portfolio as it is now can be adopted (never silently stale).",
      "pageLevelAllowed(1)":
        "The page of o1 opened on the choice (a link, a reload, the browser's forward button): o1 is chosen when the plan includes it (optimization.portfolio).",
      "pageLevelAllowed(2)":
        "The page of o2 opened on the choice: o2 is chosen with optimization.construction.",
      "pageLevelAllowed(3)":
        "The page of o3 opened on the choice: o3 is chosen with optimization.constructionFixAssets.",
      isLevelPage:
        "A level's page opened on the choice without the level's permission: the choice stays and shows the lock.",
      "pageIs(choose)":
        "The choice's page opened on a level's options (the browser's back button): the machine goes back to the choice.",
    },
    input: {
      portfolio: {
        currency: "EUR",
        assets: [
          { symbol: "SAN.MC", name: "Banco Santander", amount: 6000 },
          { symbol: "ITX.MC", name: "Inditex", amount: 4000 },
        ],
        key: "demo-1",
      },
      permissions: permissionsFor("simAssets", "advanced"),
      clientLevel: 30,
      maxToLose95: 1000,
    },
    pathEvents: [
      { type: "level.choose", level: 1 },
      { type: "level.choose", level: 2 },
      { type: "level.choose", level: 3 },
      { type: "objective.change", objective: "maximum-return" },
      { type: "maxLoss.change", amount: 50 },
      { type: "newAsset.add", symbol: "GLD", name: "Gold" },
      { type: "keep.toggle", symbol: "SAN.MC" },
      { type: "desired.change", amount: 2 },
      { type: "optimise" },
      { type: "cancel" },
      { type: "back" },
      { type: "restart" },
      { type: "adopt" },
      {
        type: "portfolio.change",
        portfolio: {
          currency: "EUR",
          assets: [{ symbol: "SAN.MC", name: "Banco Santander", amount: 10000 }],
          key: "demo-2",
        },
      },
      { type: "xstate.done.actor.optimise", output: demoOptimalAnswer },
      {
        type: "xstate.done.actor.optimise",
        output: {
          status: "infeasible",
          reason: { code: "MAX_LOSS_EXCEEDED", detail: { maxToLose95: 1000, cvar95Amount: 1400 } },
        },
      },
      { type: "xstate.error.actor.optimise", error: new SessionFailure("NETWORK_ERROR") },
      { type: "xstate.done.actor.adopt", output: undefined },
      { type: "xstate.error.actor.adopt", error: new SessionFailure("NO_EDITIONS_LEFT") },
    ],
  },
  {
    machine: bananaMachine,
    title: "Banana challenge: a new portfolio against the monkey, and its edits",
    guards: {
      isEdit: "The screen opened a saved banana portfolio to change it.",
      hasCapacity:
        "Sections 3 and 9: capacity left in the region (saveLimitPerRegion minus the portfolios saved there, check-portfolios-limit's simMonk { eu, usa }); the server answers 403 SAVE_LIMIT_REACHED otherwise.",
      canAdd:
        "A stock of the region's universe (not stale, the day's close), not chosen yet, while fewer than 50 stocks are held.",
      canSave:
        "Section 5 and docs/banana.md, as the server checks them: a name; whole shares; 1 to 50 stocks; the total at the day's closes equal to the minimum (9,900) or the maximum (10,000) investment or between them, min rounded down and max rounded up to cents.",
      mayEdit:
        "Section 6: edits only between 10:00 and 22:00 UTC (the server's clock decides; the screen's clock follows its answer), with editions left (management.edit, remainingEditions).",
      isConflict:
        "The portfolio changed elsewhere (412 PORTFOLIO_CONFLICT): reload it and edit again.",
      windowClosed: "The server's clock says the window closed (403 BANANA_WINDOW_CLOSED).",
    },
    input: {
      now: new Date("2026-11-20T12:00:00Z"),
      draft: { region: "eu", name: "Iberian monkeys", picks: [{ symbol: "SAN.MC", shares: 1990 }] },
    },
    pathEvents: [
      {
        type: "xstate.done.actor.loadCapacity",
        output: { portfolios: [], capacity: { eu: 1, usa: 0 }, simulated: true },
      },
      { type: "xstate.error.actor.loadCapacity", error: new SessionFailure("NETWORK_ERROR") },
      { type: "retry" },
      { type: "region.choose", region: "eu" },
      { type: "region.choose", region: "usa" },
      { type: "xstate.done.actor.loadUniverse", output: demoBananaUniverse },
      { type: "xstate.error.actor.loadUniverse", error: new SessionFailure("NETWORK_ERROR") },
      { type: "stock.add", symbol: "SAN.MC" },
      { type: "stock.add", symbol: "ITX.MC" },
      { type: "shares.change", symbol: "SAN.MC", shares: 1000 },
      { type: "shares.change", symbol: "ITX.MC", shares: 99 },
      { type: "stock.remove", symbol: "ITX.MC" },
      { type: "name.change", name: "Iberian monkeys" },
      { type: "region.change" },
      { type: "xstate.done.actor.loadEditUniverse", output: demoBananaUniverse },
      { type: "xstate.error.actor.loadEditUniverse", error: new SessionFailure("NETWORK_ERROR") },
      { type: "save" },
      { type: "xstate.done.actor.create", output: demoBananaPortfolio },
      { type: "xstate.error.actor.create", error: new SessionFailure("SAVE_LIMIT_REACHED") },
      { type: "start.again" },
      { type: "edit.start", portfolio: demoBananaPortfolio },
      { type: "clock.tick", now: new Date("2026-11-20T23:00:00Z") },
      { type: "clock.tick", now: new Date("2026-11-21T10:00:00Z") },
      { type: "xstate.done.actor.update", output: { ...demoBananaPortfolio, version: 2 } },
      { type: "xstate.error.actor.update", error: new SessionFailure("PORTFOLIO_CONFLICT") },
      { type: "xstate.error.actor.update", error: new SessionFailure("BANANA_WINDOW_CLOSED") },
      { type: "xstate.error.actor.update", error: new SessionFailure("NETWORK_ERROR") },
      { type: "portfolio.reloaded", portfolio: { ...demoBananaPortfolio, version: 3 } },
    ],
  },
  {
    machine: investmentSimulatorMachine,
    title: "Investment simulator",
    guards: {
      chosePortfolio:
        "PRODUCT.md: the simulator starts from a saved portfolio of the user (one that exists in GET /portfolios) or from assets chosen on the spot.",
      inputsValid:
        'SimulateRequest (src/contract/analytics.ts), as the server checks it: 1 to 500 assets with amounts above 0, no symbol twice; initial amount 0 to 1e9 and monthly contribution 0 to 1e8, one of them above 0; horizon a whole number of years from 1 to 40 (issue 12); an optional goal above 0; with my own assumptions an annual return of -50 % to +50 % and a volatility of 0 to 100 % (PRODUCT.md "Simulator assumptions"). No seed: the server\'s default.',
    },
    input: {},
    pathEvents: [
      { type: "xstate.done.actor.loadSources", output: demoSimulatorSources },
      {
        type: "xstate.error.actor.loadSources",
        error: new SessionFailure("NETWORK_ERROR"),
      },
      { type: "retry" },
      { type: "source.choose", source: "saved", portfolioId: 7 },
      { type: "source.choose", source: "custom" },
      { type: "source.change" },
      { type: "inputs.change", inputs: { goal: 15_000 } },
      { type: "inputs.change", inputs: { years: 41 } },
      { type: "simulate" },
      { type: "cancel" },
      { type: "xstate.done.actor.simulate", output: demoSimulation },
      {
        type: "xstate.error.actor.simulate",
        error: new SessionFailure("NOT_ENOUGH_HISTORY"),
      },
    ],
  },
  {
    machine: educationMachine,
    title: "Education section (hollypedia / program)",
    guards: {
      isOpen:
        "PRODUCT.md, Education: the section opens over any page when its name (hollypedia in ht, program in tt) is in the query string.",
      isLocked:
        "Section 3, hollypedia permissions: videotutorials needs hollypedia.videoTutorials and education needs hollypedia.courses; the dictionary and case studies are open. The locked tab names the plan that unlocks it.",
      isDictionary:
        "The tab is dictionary, or none was given in ht (default tab: dictionary in one edition, education in the other).",
      isVideoTutorials: "The tab is videotutorials.",
      isCaseStudies: "The tab is casestudies.",
    },
    input: { edition: "ht", access: { signedIn: true, videoTutorials: false, courses: false } },
    pathEvents: [
      {
        type: "url.changed",
        params: { tab: "dictionary", level: "user", section: null, term: "valor-en-riesgo" },
      },
      {
        type: "url.changed",
        params: { tab: "videotutorials", level: "user", section: null, term: null },
      },
      { type: "access.changed", access: { signedIn: true, videoTutorials: true, courses: true } },
      { type: "tab.select", tab: "casestudies" },
      { type: "tab.select", tab: "education" },
      { type: "level.select", level: "pro" },
      { type: "item.open", section: "bonds-in-2022" },
      { type: "term.open", term: "volatility" },
      { type: "item.close" },
      { type: "close" },
    ],
  },
];

export function machineEntry(id: string): MachineEntry {
  const entry = machineRegistry.find((e) => e.machine.id === id);
  if (!entry)
    throw new Error(
      `Unknown machine "${id}"; known: ${machineRegistry.map((e) => e.machine.id).join(", ")}`,
    );
  return entry;
}
