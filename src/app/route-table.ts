import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import type { ComponentType } from "react";
import type { Locale } from "../contract/common.ts";
import {
  assertRouteGuardNames,
  type RedirectTarget,
  type RouteGuardName,
} from "../../machines/guards/route-guards.ts";

/** What every screen receives: its language and the validated path parameters. */
export interface ScreenProps {
  readonly locale: Locale;
  readonly params: Readonly<Record<string, string>>;
}

export type LayoutName = "default" | "default-client-account" | "empty-center";

export interface RouteDefinition {
  readonly id: string;
  /** Paths without the language prefix; `{id}` stands for a positive integer inside a segment. */
  readonly paths: Readonly<Record<Locale, string>>;
  readonly guards: readonly RouteGuardName[];
  readonly layout: LayoutName;
  readonly title: MessageDescriptor;
  readonly summary: MessageDescriptor;
  /** The screen; routes without one show their title and summary until their feature lands. */
  readonly screen?: () => Promise<{ default: ComponentType<ScreenProps> }>;
  /**
   * The screen's long-lived actor is made of the portfolio machines (wizard, lifecycle,
   * optimisation, what-if): their chunk loads with the screen (src/app/route-screen.tsx).
   */
  readonly portfolioMachines?: true;
}

export const defineRoute = <const Id extends string>(
  id: Id,
  en: string,
  es: string,
  guards: readonly string[],
  title: MessageDescriptor,
  summary: MessageDescriptor,
  extra: Pick<Partial<RouteDefinition>, "layout" | "screen" | "portfolioMachines"> = {},
): RouteDefinition & { readonly id: Id } => {
  assertRouteGuardNames(guards);
  return {
    id,
    paths: { en, es },
    guards,
    layout: extra.layout ?? "default",
    title,
    summary,
    ...(extra.screen ? { screen: extra.screen } : {}),
    ...(extra.portfolioMachines ? { portfolioMachines: true as const } : {}),
  };
};

const optimiseGuards = ["auth-registered", "portfolio-creation", "subscribed"];

/** Every screen of the specification (section 2), in both languages, with its guards and layout. */
export const routeTable = [
  defineRoute(
    "index",
    "",
    "",
    [],
    msg`Home`,
    msg`Build a portfolio from three questions and understand its risk.`,
    {
      screen: () => import("../features/home/home-screen.tsx"),
    },
  ),
  defineRoute(
    "health",
    "/_health",
    "/_health",
    [],
    msg`System status`,
    msg`The status of the app, the API and the database.`,
    {
      screen: () => import("../features/health/health-screen.tsx"),
    },
  ),
  defineRoute(
    "auth-acceptPolicy",
    "/accept-privacy-policy",
    "/aceptar-politica-privacidad",
    ["forbidden-ht", "auth-registered"],
    msg`Accept the privacy policy`,
    msg`Read and accept the current privacy policy to go on.`,
    { screen: () => import("../features/auth/accept-policy-screen.tsx"), layout: "empty-center" },
  ),
  defineRoute(
    "auth-confirmEmail",
    "/confirm-email",
    "/confirmar-email",
    ["forbidden-tt"],
    msg`Confirm your email`,
    msg`Confirm your email address to activate your account.`,
    { screen: () => import("../features/auth/confirm-email-screen.tsx") },
  ),
  defineRoute(
    "auth-forgotPassword",
    "/forgot-password",
    "/olvide-contrasena",
    [],
    msg`Forgot your password?`,
    msg`We will send you a link to choose a new password.`,
    { screen: () => import("../features/auth/forgot-password-screen.tsx") },
  ),
  defineRoute(
    "auth-recoverPassword",
    "/recover-password",
    "/recuperar-contrasena",
    [],
    msg`Choose a new password`,
    msg`Set a new password for your account.`,
    { screen: () => import("../features/auth/recover-password-screen.tsx") },
  ),
  defineRoute(
    "auth-SignIn",
    "/sign-in",
    "/acceso-de-usuario",
    ["auth-guest"],
    msg`Sign in`,
    msg`Sign in to your account.`,
    { screen: () => import("../features/auth/sign-in-screen.tsx") },
  ),
  defineRoute(
    "auth-signUp",
    "/sign-up",
    "/registro-de-usuario",
    ["auth-guest", "forbidden-tt"],
    msg`Create your account`,
    msg`Sign up to build and save portfolios.`,
    { screen: () => import("../features/auth/sign-up-screen.tsx") },
  ),
  defineRoute(
    "choose-your-plan",
    "/choose-your-plan",
    "/elige-tu-plan",
    ["choose-plan-page", "forbidden-tt"],
    msg`Choose your plan`,
    msg`Compare the plans and the features each one unlocks.`,
    { screen: () => import("../features/billing/choose-plan-screen.tsx") },
  ),
  defineRoute(
    "account-billing",
    "/my-account/billing-subscription",
    "/mi-cuenta/facturacion-suscripcion",
    ["auth-registered", "forbidden-tt"],
    msg`Billing and subscription`,
    msg`Your plan, your invoices and your billing details.`,
    {
      layout: "default-client-account",
      screen: () => import("../features/billing/billing-screen.tsx"),
    },
  ),
  defineRoute(
    "account-banana-portfolio",
    "/my-account/banana-portfolios/portfolio-{id}",
    "/mi-cuenta/carteras-banana/cartera-{id}",
    ["auth-registered", "monkey-permission"],
    msg`Banana portfolio`,
    msg`Your banana challenge portfolio against the monkey.`,
    { screen: () => import("../features/banana/banana-portfolio-screen.tsx") },
  ),
  defineRoute(
    "account-banana-challenge",
    "/my-account/banana-challenge",
    "/mi-cuenta/banana-challenge",
    ["auth-registered", "monkey-permission"],
    msg`My banana challenge`,
    msg`Your portfolios in the banana challenge.`,
    { screen: () => import("../features/banana/account-banana-screen.tsx") },
  ),
  defineRoute(
    "account-portfolios",
    "/my-account/portfolios",
    "/mi-cuenta/carteras",
    ["auth-registered"],
    msg`My portfolios`,
    msg`The portfolios you have saved.`,
    { screen: () => import("../features/portfolios/portfolio-list-screen.tsx") },
  ),
  defineRoute(
    "account-portfolio",
    "/my-account/portfolios/portfolio-{id}",
    "/mi-cuenta/carteras/cartera-{id}",
    ["auth-registered", "subscribed"],
    msg`Portfolio`,
    msg`One of your saved portfolios.`,
    {
      screen: () => import("../features/portfolios/portfolio-screen.tsx"),
      portfolioMachines: true,
    },
  ),
  defineRoute(
    "account-profile",
    "/my-account/profile",
    "/mi-cuenta/perfil",
    ["auth-registered"],
    msg`Profile`,
    msg`Your personal details and preferences.`,
    { screen: () => import("../features/account/profile-screen.tsx") },
  ),
  defineRoute(
    "investment-simulator",
    "/investment-simulator",
    "/simulador-de-inversion",
    ["auth-registered"],
    msg`Investment simulator`,
    msg`Simulate investing over time with monthly contributions.`,
    { screen: () => import("../features/simulator/simulator-screen.tsx") },
  ),
  defineRoute(
    "markets",
    "/markets",
    "/mercados",
    [],
    msg`Markets`,
    msg`Indices, currencies, rates and commodities.`,
    { screen: () => import("../features/markets/markets-screen.tsx") },
  ),
  defineRoute(
    "banana-challenge",
    "/banana-challenge",
    "/banana-challenge",
    ["auth-registered", "monkey-permission", "forbidden-trial"],
    msg`Banana challenge`,
    msg`Pick stocks and compete against the community and the monkey.`,
    { screen: () => import("../features/banana/banana-challenge-screen.tsx") },
  ),
  defineRoute(
    "create-q1",
    "/create-portfolio/q1",
    "/crear-cartera/p1",
    ["auth-registered", "forbidden-trial"],
    msg`What do you want to invest in?`,
    msg`Question 1 of 3: the universe, the currency and the amount.`,
    { screen: () => import("../features/portfolios/q1-screen.tsx"), portfolioMachines: true },
  ),
  defineRoute(
    "create-q2",
    "/create-portfolio/q2",
    "/crear-cartera/p2",
    ["auth-registered", "portfolio-creation"],
    msg`How much could you bear to lose?`,
    msg`Question 2 of 3: your maximum loss in a bad month.`,
    { screen: () => import("../features/portfolios/q2-screen.tsx") },
  ),
  defineRoute(
    "create-q3",
    "/create-portfolio/q3",
    "/crear-cartera/p3",
    ["auth-registered", "portfolio-creation"],
    msg`What matters most to you?`,
    msg`Question 3 of 3: your priority and the number of assets.`,
    { screen: () => import("../features/portfolios/q3-screen.tsx") },
  ),
  defineRoute(
    "create-summary",
    "/create-portfolio/summary",
    "/crear-cartera/resumen",
    ["auth-registered", "portfolio-creation"],
    msg`Your proposed portfolio`,
    msg`Adjust the amounts, then save your portfolio.`,
    { screen: () => import("../features/portfolios/summary-screen.tsx"), portfolioMachines: true },
  ),
  defineRoute(
    "analysis-full",
    "/analysis/full-analysis",
    "/analisis/analisis-completo",
    optimiseGuards,
    msg`Full analysis`,
    msg`Breakdown, diversification, returns, VaR and risk contributions.`,
    { screen: () => import("../features/portfolios/full-analysis-screen.tsx") },
  ),
  defineRoute(
    "assess-risk",
    "/assess-risk/assessment",
    "/medir-riesgo/valoracion",
    ["auth-registered", "portfolio-created"],
    msg`Risk assessment`,
    msg`Your portfolio's loss at 95% against what you said you could bear.`,
    { screen: () => import("../features/portfolios/assess-risk-screen.tsx") },
  ),
  defineRoute(
    "what-if-scenarios",
    "/what-if/scenarios",
    "/que-pasaria-si/escenarios",
    ["portfolio-created"],
    msg`What-if scenarios`,
    msg`Shock the markets, replay real crises or backtest your portfolio.`,
    { screen: () => import("../features/what-if/scenarios-screen.tsx"), portfolioMachines: true },
  ),
  defineRoute(
    "what-if-assessment",
    "/what-if/assessment",
    "/que-pasaria/valoracion",
    ["subscribed"],
    msg`What-if assessment`,
    msg`The effect of the scenario on each asset and on the whole portfolio.`,
    { screen: () => import("../features/what-if/assessment-screen.tsx"), portfolioMachines: true },
  ),
  defineRoute(
    "analysis-optimized-full",
    "/analysis/optimized-portfolio-full-analysis",
    "/analisis/analisis-completo-cartera-optimizada",
    optimiseGuards,
    msg`Full analysis of the optimised portfolio`,
    msg`The optimised portfolio's risk and returns, figure by figure.`,
    {
      screen: () => import("../features/optimise/optimised-analysis-screen.tsx"),
      portfolioMachines: true,
    },
  ),
  defineRoute(
    "optimize-choose",
    "/optimize/choose",
    "/optimizar/seleccionar",
    optimiseGuards,
    msg`Optimise your portfolio`,
    msg`Choose how to optimise your portfolio.`,
    { screen: () => import("../features/optimise/choose-screen.tsx"), portfolioMachines: true },
  ),
  defineRoute(
    "optimize-o1",
    "/optimize/o1",
    "/optimizar/o1",
    optimiseGuards,
    msg`Lower the risk of my assets`,
    msg`The same assets, new weights: the lowest risk, or the highest return within your maximum loss.`,
    { screen: () => import("../features/optimise/o1-screen.tsx"), portfolioMachines: true },
  ),
  defineRoute(
    "optimize-o2",
    "/optimize/o2",
    "/optimizar/o2",
    optimiseGuards,
    msg`Add new assets`,
    msg`New assets from the market, and the assets you keep within their weights.`,
    { screen: () => import("../features/optimise/o2-screen.tsx"), portfolioMachines: true },
  ),
  defineRoute(
    "optimize-o3",
    "/optimize/o3",
    "/optimizar/o3",
    optimiseGuards,
    msg`Choose how many assets`,
    msg`The number of assets you want, with the ones you keep among them.`,
    { screen: () => import("../features/optimise/o3-screen.tsx"), portfolioMachines: true },
  ),
  defineRoute(
    "optimize-summary",
    "/optimize/summary",
    "/optimizar/resumen",
    optimiseGuards,
    msg`Optimised portfolio`,
    msg`Your portfolio before and after the optimisation.`,
    { screen: () => import("../features/optimise/summary-screen.tsx"), portfolioMachines: true },
  ),
  defineRoute(
    "subscribe-confirm",
    "/subscribe/confirm",
    "/suscribete/confirmar",
    ["auth-registered", "forbidden-tt"],
    msg`Confirm your subscription`,
    msg`Review your plan and pay.`,
    { screen: () => import("../features/billing/subscribe-confirm-screen.tsx") },
  ),
  defineRoute(
    "payment-complete",
    "/payment-complete",
    "/pago-realizado",
    ["forbidden-tt"],
    msg`Payment complete`,
    msg`Thank you: your plan is active.`,
    { screen: () => import("../features/billing/payment-complete-screen.tsx") },
  ),
] as const satisfies readonly RouteDefinition[];

export type RouteId = (typeof routeTable)[number]["id"];

// Every screen a guard can redirect to must exist in the table (checked by the compiler).
type MissingTargets = Exclude<RedirectTarget, RouteId>;
const _everyTargetExists: MissingTargets extends never ? true : MissingTargets = true;
void _everyTargetExists;

export const routesById = new Map<string, RouteDefinition>(routeTable.map((r) => [r.id, r]));

export function routeById(id: RouteId): RouteDefinition {
  const found = routesById.get(id);
  if (!found) throw new Error(`Unknown route "${id}"`);
  return found;
}

/**
 * The screens that show market figures (prices, valuations, analyses, what-ifs, the banana
 * challenge, the simulator): in replay mode they carry the market clock's notice, drawn once by
 * the route above the screen (PRODUCT.md, "Market clock on historical data").
 */
export const marketFigureRoutes: ReadonlySet<RouteId> = new Set<RouteId>([
  "markets",
  "account-portfolios",
  "account-portfolio",
  "account-banana-portfolio",
  "account-banana-challenge",
  "banana-challenge",
  "investment-simulator",
  "create-summary",
  "analysis-full",
  "assess-risk",
  "what-if-scenarios",
  "what-if-assessment",
  "analysis-optimized-full",
  "optimize-choose",
  "optimize-o1",
  "optimize-o2",
  "optimize-o3",
  "optimize-summary",
]);
