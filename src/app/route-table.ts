import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import type { ComponentType } from "react";
import type { Locale } from "../contract/common.ts";
import { assertRouteGuardNames, type RedirectTarget, type RouteGuardName } from "../../machines/guards/route-guards.ts";

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
  readonly screen?: () => Promise<{ default: ComponentType }>;
}

const route = <const Id extends string>(
  id: Id,
  en: string,
  es: string,
  guards: readonly string[],
  title: MessageDescriptor,
  summary: MessageDescriptor,
  extra: { layout?: LayoutName; screen?: RouteDefinition["screen"] } = {},
): RouteDefinition & { readonly id: Id } => {
  assertRouteGuardNames(guards);
  return { id, paths: { en, es }, guards, layout: extra.layout ?? "default", title, summary, ...(extra.screen ? { screen: extra.screen } : {}) };
};

const optimiseGuards = ["auth-registered", "portfolio-creation", "subscribed"];

/** Every screen of the specification (section 2), in both languages, with its guards and layout. */
export const routeTable = [
  route("index", "", "", [], msg`Home`, msg`Build a portfolio from three questions and understand its risk.`, {
    screen: () => import("../features/home/home-screen.tsx"),
  }),
  route("health", "/_health", "/_health", [], msg`System status`, msg`The status of the app, the API and the database.`, {
    screen: () => import("../features/health/health-screen.tsx"),
  }),
  route(
    "auth-acceptPolicy",
    "/accept-privacy-policy",
    "/aceptar-politica-privacidad",
    ["forbidden-ht", "auth-registered"],
    msg`Accept the privacy policy`,
    msg`Read and accept the current privacy policy to go on.`,
    { layout: "empty-center" },
  ),
  route("auth-confirmEmail", "/confirm-email", "/confirmar-email", ["forbidden-tt"], msg`Confirm your email`, msg`Confirm your email address to activate your account.`),
  route("auth-forgotPassword", "/forgot-password", "/olvide-contrasena", [], msg`Forgot your password?`, msg`We will send you a link to choose a new password.`),
  route("auth-recoverPassword", "/recover-password", "/recuperar-contrasena", [], msg`Choose a new password`, msg`Set a new password for your account.`),
  route("auth-SignIn", "/sign-in", "/acceso-de-usuario", ["auth-guest"], msg`Sign in`, msg`Sign in to your account.`),
  route("auth-signUp", "/sign-up", "/registro-de-usuario", ["auth-guest", "forbidden-tt"], msg`Create your account`, msg`Sign up to build and save portfolios.`),
  route("choose-your-plan", "/choose-your-plan", "/elige-tu-plan", ["choose-plan-page", "forbidden-tt"], msg`Choose your plan`, msg`Compare the plans and the features each one unlocks.`),
  route(
    "account-billing",
    "/my-account/billing-subscription",
    "/mi-cuenta/facturacion-suscripcion",
    ["auth-registered", "forbidden-tt"],
    msg`Billing and subscription`,
    msg`Your plan, your invoices and your billing details.`,
    { layout: "default-client-account" },
  ),
  route(
    "account-banana-portfolio",
    "/my-account/banana-portfolios/portfolio-{id}",
    "/mi-cuenta/carteras-banana/cartera-{id}",
    ["auth-registered", "monkey-permission"],
    msg`Banana portfolio`,
    msg`Your banana challenge portfolio against the monkey.`,
  ),
  route("account-banana-challenge", "/my-account/banana-challenge", "/mi-cuenta/banana-challenge", ["auth-registered", "monkey-permission"], msg`My banana challenge`, msg`Your portfolios in the banana challenge.`),
  route("account-portfolios", "/my-account/portfolios", "/mi-cuenta/carteras", ["auth-registered"], msg`My portfolios`, msg`The portfolios you have saved.`),
  route("account-portfolio", "/my-account/portfolios/portfolio-{id}", "/mi-cuenta/carteras/cartera-{id}", ["auth-registered", "subscribed"], msg`Portfolio`, msg`One of your saved portfolios.`),
  route("account-profile", "/my-account/profile", "/mi-cuenta/perfil", ["auth-registered"], msg`Profile`, msg`Your personal details and preferences.`),
  route("investment-simulator", "/investment-simulator", "/simulador-de-inversion", ["auth-registered"], msg`Investment simulator`, msg`Simulate investing over time with monthly contributions.`),
  route("markets", "/markets", "/mercados", [], msg`Markets`, msg`Indices, currencies, rates and commodities.`),
  route("banana-challenge", "/banana-challenge", "/banana-challenge", ["auth-registered", "monkey-permission", "forbidden-trial"], msg`Banana challenge`, msg`Pick stocks and compete against the community and the monkey.`),
  route("create-q1", "/create-portfolio/q1", "/crear-cartera/p1", ["auth-registered", "forbidden-trial"], msg`What do you want to invest in?`, msg`Question 1 of 3: the universe, the currency and the amount.`),
  route("create-q2", "/create-portfolio/q2", "/crear-cartera/p2", ["auth-registered", "portfolio-creation"], msg`How much could you bear to lose?`, msg`Question 2 of 3: your maximum loss in a bad month.`),
  route("create-q3", "/create-portfolio/q3", "/crear-cartera/p3", ["auth-registered", "portfolio-creation"], msg`What matters most to you?`, msg`Question 3 of 3: your priority and the number of assets.`),
  route("create-summary", "/create-portfolio/summary", "/crear-cartera/resumen", ["auth-registered", "portfolio-creation"], msg`Your proposed portfolio`, msg`Adjust the amounts, then save your portfolio.`),
  route("analysis-full", "/analysis/full-analysis", "/analisis/analisis-completo", optimiseGuards, msg`Full analysis`, msg`Breakdown, diversification, returns, VaR and risk contributions.`),
  route("assess-risk", "/assess-risk/assessment", "/medir-riesgo/valoracion", ["auth-registered", "portfolio-created"], msg`Risk assessment`, msg`Your portfolio's loss at 95% against what you said you could bear.`),
  route("what-if-scenarios", "/what-if/scenarios", "/que-pasaria-si/escenarios", ["portfolio-created"], msg`What-if scenarios`, msg`Shock the markets, replay real crises or backtest your portfolio.`),
  route("what-if-assessment", "/what-if/assessment", "/que-pasaria/valoracion", ["subscribed"], msg`What-if assessment`, msg`The effect of the scenario on each asset and on the whole portfolio.`),
  route(
    "analysis-optimized-full",
    "/analysis/optimized-portfolio-full-analysis",
    "/analisis/analisis-completo-cartera-optimizada",
    optimiseGuards,
    msg`Full analysis of the optimised portfolio`,
    msg`The optimised portfolio's risk and returns, figure by figure.`,
  ),
  route("optimize-choose", "/optimize/choose", "/optimizar/seleccionar", optimiseGuards, msg`Optimise your portfolio`, msg`Choose how to optimise your portfolio.`),
  route("optimize-o1", "/optimize/o1", "/optimizar/o1", optimiseGuards, msg`Optimise: assets to keep`, msg`Step 1: the assets to keep and their weights.`),
  route("optimize-o2", "/optimize/o2", "/optimizar/o2", optimiseGuards, msg`Optimise: maximum loss`, msg`Step 2: the maximum loss at 95% you accept.`),
  route("optimize-o3", "/optimize/o3", "/optimizar/o3", optimiseGuards, msg`Optimise: number of assets`, msg`Step 3: the number of assets you want.`),
  route("optimize-summary", "/optimize/summary", "/optimizar/resumen", optimiseGuards, msg`Optimised portfolio`, msg`Your portfolio before and after the optimisation.`),
  route("subscribe-confirm", "/subscribe/confirm", "/suscribete/confirmar", ["auth-registered", "forbidden-tt"], msg`Confirm your subscription`, msg`Review your plan and pay.`),
  route("payment-complete", "/payment-complete", "/pago-realizado", ["forbidden-tt"], msg`Payment complete`, msg`Thank you: your plan is active.`),
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
