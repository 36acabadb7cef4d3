import type { Schema } from "effect";
import {
  Accepted,
  AcceptPoliciesRequest,
  CaptchaChallenge,
  ChangePasswordRequest,
  Client,
  ConfirmEmailRequest,
  Credentials,
  EmailOnly,
  InvoiceInfo,
  Outbox,
  PortfolioLimits,
  RecoverPasswordRequest,
  SessionToken,
  SignUpRequest,
  UpdateClientRequest,
} from "./accounts.ts";
import {
  AnalyseRequest,
  AnalysisResponse,
  OptimiseRequest,
  OptimiseResponse,
  WhatIfRequest,
  WhatIfResponse,
  SimulateRequest,
  SimulateResponse,
} from "./analytics.ts";
import {
  BillingOverview,
  CheckoutRequest,
  CheckoutResponse,
  InvoiceInfoUpdate,
  Payment,
  PlanCatalog,
  PlanChoice,
  ProductRequest,
  Quote,
  ScheduleRequest,
  TestClockRequest,
  TestCreditRequest,
} from "./billing.ts";
import {
  CaseStudyList,
  DictionaryList,
  SectionAnswers,
  SectionResult,
  SectionsResponse,
  VideoList,
} from "./education.ts";
import {
  BananaHistory,
  BananaList,
  BananaPortfolio,
  BananaRanking,
  BananaUniverse,
  CreateBananaRequest,
  UpdateBananaRequest,
} from "./banana.ts";
import { HealthResponse } from "./health.ts";
import {
  AssetList,
  AssetView,
  MarketMovers,
  MarketOverview,
  MarketSectors,
  MarketToday,
} from "./market.ts";
import {
  Portfolio,
  PortfolioHistory,
  PortfolioList,
  ProposeRequest,
  ProposeResponse,
  ResetPortfolioRequest,
  SavePortfolioRequest,
  UpdatePortfolioRequest,
} from "./portfolios.ts";
import { BenchmarkSeriesRequest, PastPerformance } from "./past-performance.ts";
import { RuntimeConfig } from "./runtime-config.ts";

export type HttpMethod = "GET" | "POST" | "PUT" | "DELETE";

/** One API call: its method, its path under the API base, and the schemas of what goes each way. */
/** A schema that decodes without services (all of the contract's do). */
export type ContractSchema = Schema.Codec<any, any, never, never>;

export interface Endpoint<
  Res extends ContractSchema = ContractSchema,
  Body extends ContractSchema | undefined = ContractSchema | undefined,
> {
  readonly method: HttpMethod;
  readonly path: string;
  readonly body?: Body;
  readonly response: Res;
  /**
   * The call creates something: the server honours an Idempotency-Key on it (docs/api.md,
   * "Repeated calls"), and the client sends one with every call, so its retries are safe.
   */
  readonly creates?: true;
}

const endpoint = <Res extends ContractSchema, Body extends ContractSchema | undefined = undefined>(
  e: Endpoint<Res, Body>,
): Endpoint<Res, Body> => e;

/** Every call of the API, shared by the server (validation) and the client (decoding). */
export const endpoints = {
  health: endpoint({ method: "GET", path: "/health", response: HealthResponse }),
  config: endpoint({ method: "GET", path: "/config", response: RuntimeConfig }),

  login: endpoint({
    method: "POST",
    path: "/auth/login",
    body: Credentials,
    response: SessionToken,
  }),
  register: endpoint({
    method: "POST",
    path: "/auth/register",
    creates: true,
    body: SignUpRequest,
    response: Accepted,
  }),
  logout: endpoint({ method: "POST", path: "/auth/logout", response: Accepted }),
  changePassword: endpoint({
    method: "PUT",
    path: "/auth/change-password",
    body: ChangePasswordRequest,
    response: SessionToken,
  }),
  resendConfirmation: endpoint({
    method: "POST",
    path: "/auth/resend-register-email-confirmation",
    body: EmailOnly,
    response: Accepted,
  }),
  confirmEmail: endpoint({
    method: "PUT",
    path: "/auth/confirm-email",
    body: ConfirmEmailRequest,
    response: SessionToken,
  }),
  forgotPassword: endpoint({
    method: "POST",
    path: "/auth/forgot-password",
    body: EmailOnly,
    response: Accepted,
  }),
  recoverPassword: endpoint({
    method: "POST",
    path: "/auth/recover-password",
    body: RecoverPasswordRequest,
    response: Accepted,
  }),
  captcha: endpoint({ method: "GET", path: "/auth/captcha", response: CaptchaChallenge }),

  client: endpoint({ method: "GET", path: "/client", response: Client }),
  updateClient: endpoint({
    method: "PUT",
    path: "/client",
    body: UpdateClientRequest,
    response: Client,
  }),
  acceptPolicies: endpoint({
    method: "POST",
    path: "/client/accept-policies",
    body: AcceptPoliciesRequest,
    response: Client,
  }),
  portfolioLimits: endpoint({
    method: "GET",
    path: "/client/check-portfolios-limit",
    response: PortfolioLimits,
  }),
  invoiceInfo: endpoint({ method: "GET", path: "/client/invoice-info", response: InvoiceInfo }),
  updateInvoiceInfo: endpoint({
    method: "PUT",
    path: "/client/invoice-info",
    body: InvoiceInfoUpdate,
    response: InvoiceInfo,
  }),

  // Billing (docs/billing.md). The plans are public; everything else needs a session.
  plans: endpoint({ method: "GET", path: "/billing/plans", response: PlanCatalog }),
  billing: endpoint({ method: "GET", path: "/billing", response: BillingOverview }),
  quote: endpoint({ method: "POST", path: "/billing/quote", body: PlanChoice, response: Quote }),
  checkout: endpoint({
    method: "POST",
    path: "/billing/checkout",
    creates: true,
    body: CheckoutRequest,
    response: CheckoutResponse,
  }),
  payment: endpoint({ method: "GET", path: "/billing/payments/:id", response: Payment }),
  scheduleChange: endpoint({
    method: "POST",
    path: "/billing/schedule",
    body: ScheduleRequest,
    response: BillingOverview,
  }),
  cancelScheduledChange: endpoint({
    method: "POST",
    path: "/billing/schedule/cancel",
    body: ProductRequest,
    response: BillingOverview,
  }),
  startTrial: endpoint({
    method: "POST",
    path: "/billing/trial",
    creates: true,
    body: ProductRequest,
    response: BillingOverview,
  }),
  /** The sandbox's test clock (SANDBOX_TEST_CLOCK=true with the sandbox only; 403 otherwise). */
  testClock: endpoint({
    method: "POST",
    path: "/billing/test-clock",
    body: TestClockRequest,
    response: BillingOverview,
  }),
  /** A credit to the account balance given by hand (the same switch as the test clock). */
  testCredit: endpoint({
    method: "POST",
    path: "/billing/test-credit",
    body: TestCreditRequest,
    response: BillingOverview,
  }),
  cancelSubscription: endpoint({
    method: "POST",
    path: "/cancel-subscription",
    body: ProductRequest,
    response: BillingOverview,
  }),
  reactivateSubscription: endpoint({
    method: "POST",
    path: "/reactivate-subscription",
    body: ProductRequest,
    response: BillingOverview,
  }),

  // Education (docs/education.md): dictionary and case studies for everybody; the video tutorials
  // and the courses for plans with hollypedia.videoTutorials / hollypedia.courses.
  dictionaryTerms: endpoint({
    method: "GET",
    path: "/dictionary-terms/list",
    response: DictionaryList,
  }),
  caseStudies: endpoint({ method: "GET", path: "/case-studies/list", response: CaseStudyList }),
  videoTutorials: endpoint({ method: "GET", path: "/videotutorials/list", response: VideoList }),
  sections: endpoint({ method: "GET", path: "/sections", response: SectionsResponse }),
  storeSection: endpoint({
    method: "POST",
    path: "/sections",
    creates: true,
    body: SectionAnswers,
    response: SectionResult,
  }),

  marketToday: endpoint({ method: "GET", path: "/market/today", response: MarketToday }),
  marketAssets: endpoint({ method: "GET", path: "/market/assets", response: AssetList }),
  marketOverview: endpoint({ method: "GET", path: "/market/overview", response: MarketOverview }),
  marketMovers: endpoint({ method: "GET", path: "/market/movers", response: MarketMovers }),
  marketSectors: endpoint({ method: "GET", path: "/market/sectors", response: MarketSectors }),
  marketAsset: endpoint({ method: "GET", path: "/market/assets/:symbol", response: AssetView }),
  analyse: endpoint({
    method: "POST",
    path: "/analytics/analyse",
    body: AnalyseRequest,
    response: AnalysisResponse,
  }),
  optimise: endpoint({
    method: "POST",
    path: "/analytics/optimise",
    body: OptimiseRequest,
    response: OptimiseResponse,
  }),
  simulate: endpoint({
    method: "POST",
    path: "/analytics/simulate",
    body: SimulateRequest,
    response: SimulateResponse,
  }),
  whatIf: endpoint({
    method: "POST",
    path: "/analytics/what-if",
    body: WhatIfRequest,
    response: WhatIfResponse,
  }),

  proposePortfolio: endpoint({
    method: "POST",
    path: "/portfolios/propose",
    body: ProposeRequest,
    response: ProposeResponse,
  }),
  portfolios: endpoint({ method: "GET", path: "/portfolios", response: PortfolioList }),
  portfolio: endpoint({ method: "GET", path: "/portfolios/:id", response: Portfolio }),
  savePortfolio: endpoint({
    method: "POST",
    path: "/portfolios",
    creates: true,
    body: SavePortfolioRequest,
    response: Portfolio,
  }),
  updatePortfolio: endpoint({
    method: "PUT",
    path: "/portfolios/:id",
    body: UpdatePortfolioRequest,
    response: Portfolio,
  }),
  resetPortfolio: endpoint({
    method: "POST",
    path: "/portfolios/:id/reset",
    body: ResetPortfolioRequest,
    response: Portfolio,
  }),
  deletePortfolio: endpoint({ method: "DELETE", path: "/portfolios/:id", response: Accepted }),
  portfolioAnalysis: endpoint({
    method: "GET",
    path: "/portfolios/:id/analysis",
    response: AnalysisResponse,
  }),
  portfolioHistory: endpoint({
    method: "GET",
    path: "/portfolios/:id/history",
    response: PortfolioHistory,
  }),
  portfolioPastPerformance: endpoint({
    method: "GET",
    path: "/portfolios/:id/past-performance",
    response: PastPerformance,
  }),
  setPortfolioBenchmarkSeries: endpoint({
    method: "PUT",
    path: "/portfolios/:id/benchmark-series",
    body: BenchmarkSeriesRequest,
    response: Portfolio,
  }),

  bananaUniverse: endpoint({ method: "GET", path: "/banana/universe", response: BananaUniverse }),
  bananaPortfolios: endpoint({ method: "GET", path: "/banana/portfolios", response: BananaList }),
  createBanana: endpoint({
    method: "POST",
    path: "/banana/portfolios",
    creates: true,
    body: CreateBananaRequest,
    response: BananaPortfolio,
  }),
  bananaPortfolio: endpoint({
    method: "GET",
    path: "/banana/portfolios/:id",
    response: BananaPortfolio,
  }),
  updateBanana: endpoint({
    method: "PUT",
    path: "/banana/portfolios/:id",
    body: UpdateBananaRequest,
    response: BananaPortfolio,
  }),
  bananaHistory: endpoint({
    method: "GET",
    path: "/banana/portfolios/:id/history",
    response: BananaHistory,
  }),
  bananaRanking: endpoint({ method: "GET", path: "/banana/ranking", response: BananaRanking }),
  bananaCommunityPortfolio: endpoint({
    method: "GET",
    path: "/banana/community/:id",
    response: BananaPortfolio,
  }),

  outbox: endpoint({ method: "GET", path: "/dev/outbox", response: Outbox }),
} as const;
