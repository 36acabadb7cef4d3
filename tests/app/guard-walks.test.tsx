// @vitest-environment jsdom
// Route guards by kind of person, at route level: every demo kind signs in through the sign-in
// screen of the real app, answered by the real server in-process (tests/support/server-tab.tsx),
// then opens one route per guard in the app, and must end where the rules of
// machines/guards/route-guards.ts send it. The expected place is worked out here, from the rules
// as PRODUCT.md words them, not taken from the app. (It was a browser walk; nothing in it needs a
// browser: the guards, the redirects and the screens' headings are the app's, not Chromium's.)
import { cleanup, screen, waitFor } from "@testing-library/react";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Edition, Locale } from "../../src/contract/common.ts";
import {
  openServerTab,
  openTabServer,
  signInThroughScreen,
  type TabServer,
} from "../support/server-tab.tsx";

type Guard =
  | "auth-guest"
  | "auth-registered"
  | "forbidden-ht"
  | "forbidden-tt"
  | "forbidden-trial"
  | "choose-plan-page"
  | "subscribed"
  | "monkey-permission"
  | "portfolio-creation"
  | "portfolio-created";

/** The fixed order in which a route's guards are checked; the first that fails redirects. */
const guardOrder: readonly Guard[] = [
  "auth-guest",
  "auth-registered",
  "forbidden-ht",
  "forbidden-tt",
  "forbidden-trial",
  "choose-plan-page",
  "subscribed",
  "monkey-permission",
  "portfolio-creation",
  "portfolio-created",
];

/** What the guards know of a signed-in person; null for a guest. */
type Account = {
  readonly kind: "standard" | "HT" | "TT";
  readonly trial: boolean;
  /** A paid subscription to simAssets, the product of both editions' pages. */
  readonly subscribed: boolean;
  /** simMonk's simulator permission. */
  readonly banana: boolean;
} | null;

/** The routes of the table (src/app/route-table.ts) that are opened or redirected to here. */
const routes = {
  index: {
    en: "/en",
    es: "/es",
    guards: [],
    title: { en: "Invest with your eyes open", es: "Invierte con los ojos abiertos" },
  },
  signIn: {
    en: "/en/sign-in",
    es: "/es/acceso-de-usuario",
    guards: ["auth-guest"],
    title: { en: "Sign in", es: "Acceder" },
  },
  profile: {
    en: "/en/my-account/profile",
    es: "/es/mi-cuenta/perfil",
    guards: ["auth-registered"],
    title: { en: "Profile", es: "Perfil" },
  },
  acceptPolicy: {
    en: "/en/accept-privacy-policy",
    es: "/es/aceptar-politica-privacidad",
    guards: ["forbidden-ht", "auth-registered"],
    title: { en: "Accept the privacy policy", es: "Acepta la política de privacidad" },
  },
  confirmEmail: {
    en: "/en/confirm-email",
    es: "/es/confirmar-email",
    guards: ["forbidden-tt"],
    title: { en: "Confirm your email", es: "Confirma tu email" },
  },
  choosePlan: {
    en: "/en/choose-your-plan",
    es: "/es/elige-tu-plan",
    guards: ["choose-plan-page", "forbidden-tt"],
    title: { en: "Choose your plan", es: "Elige tu plan" },
  },
  billing: {
    en: "/en/my-account/billing-subscription",
    es: "/es/mi-cuenta/facturacion-suscripcion",
    guards: ["auth-registered", "forbidden-tt"],
    title: { en: "Billing and subscription", es: "Facturación y suscripción" },
  },
  createQ1: {
    en: "/en/create-portfolio/q1",
    es: "/es/crear-cartera/p1",
    guards: ["auth-registered", "forbidden-trial"],
    title: { en: "What do you want to invest in?", es: "¿En qué quieres invertir?" },
  },
  createQ2: {
    en: "/en/create-portfolio/q2",
    es: "/es/crear-cartera/p2",
    guards: ["auth-registered", "portfolio-creation"],
    title: { en: "How much could you bear to lose?", es: "¿Cuánto podrías soportar perder?" },
  },
  whatIfAssessment: {
    en: "/en/what-if/assessment",
    es: "/es/que-pasaria/valoracion",
    guards: ["subscribed"],
    title: { en: "What-if assessment", es: "Valoración del escenario" },
  },
  whatIfScenarios: {
    en: "/en/what-if/scenarios",
    es: "/es/que-pasaria-si/escenarios",
    guards: ["portfolio-created"],
    title: { en: "What-if scenarios", es: "Escenarios ¿qué pasaría si?" },
  },
  myPortfolios: {
    en: "/en/my-account/portfolios",
    es: "/es/mi-cuenta/carteras",
    guards: ["auth-registered"],
    title: { en: "My portfolios", es: "Mis carteras" },
  },
  portfolio: {
    en: "/en/my-account/portfolios/portfolio-1",
    es: "/es/mi-cuenta/carteras/cartera-1",
    guards: ["auth-registered", "subscribed"],
    title: { en: "Portfolio", es: "Cartera" },
  },
  myBananaChallenge: {
    en: "/en/my-account/banana-challenge",
    es: "/es/mi-cuenta/banana-challenge",
    guards: ["auth-registered", "monkey-permission"],
    title: { en: "My banana challenge", es: "Mi banana challenge" },
  },
  bananaChallenge: {
    en: "/en/banana-challenge",
    es: "/es/banana-challenge",
    guards: ["auth-registered", "monkey-permission", "forbidden-trial"],
    title: { en: "Banana challenge", es: "Banana challenge" },
  },
} as const satisfies Record<
  string,
  Record<Locale, string> & { guards: readonly Guard[]; title: Record<Locale, string> }
>;
type RouteId = keyof typeof routes;

/** A representative route per guard (and a second one where the guard list differs). */
const opened: readonly RouteId[] = [
  // First, while nothing can have been created or loaded in the page: those guards' routes.
  "createQ2", // portfolio-creation
  "whatIfScenarios", // portfolio-created
  "signIn", // auth-guest
  "profile", // auth-registered
  "acceptPolicy", // forbidden-ht
  "confirmEmail", // forbidden-tt
  "choosePlan", // forbidden-tt, choose-plan-page
  "billing", // forbidden-tt
  "createQ1", // forbidden-trial
  "whatIfAssessment", // subscribed
  "portfolio", // subscribed
  "myBananaChallenge", // monkey-permission
  "bananaChallenge", // monkey-permission, forbidden-trial
];

/** The rule of each guard (PRODUCT.md): does this person pass it? */
function passes(guard: Guard, who: Account): boolean {
  switch (guard) {
    case "auth-guest":
      return who === null;
    case "auth-registered":
      return who !== null;
    // Rules about the kind of account let guests through; the other guards deal with them.
    case "forbidden-ht":
      return who?.kind !== "HT";
    case "forbidden-tt":
    case "choose-plan-page":
      return who?.kind !== "TT";
    case "forbidden-trial":
      return !who?.trial;
    // Rules about what an account has fail for guests.
    case "subscribed":
      return who?.subscribed === true;
    case "monkey-permission":
      return who?.banana === true;
    // Nothing is being created or loaded when a page is opened by its address.
    case "portfolio-creation":
    case "portfolio-created":
      return false;
  }
}

interface Place {
  readonly route: RouteId;
  /** The query string, with its "?", or "". */
  readonly search: string;
}

const query = (params: Record<string, string>) => `?${new URLSearchParams(params)}`;

function routeOfPath(path: string, locale: Locale): RouteId {
  const found = (Object.keys(routes) as RouteId[]).find((id) => routes[id][locale] === path);
  if (!found) throw new Error(`no route in this test's table for ${path}`);
  return found;
}

/** Where a failed guard sends the person who asked for `requested` (path and query). */
function redirect(guard: Guard, requested: string, locale: Locale): Place {
  const returnTo = { returnTo: requested };
  switch (guard) {
    case "auth-guest": {
      const back = new URLSearchParams(requested.split("?")[1] ?? "").get("returnTo");
      if (back?.startsWith("/") && !back.startsWith("//")) {
        const [path = "", search] = back.split("?");
        return { route: routeOfPath(path, locale), search: search ? `?${search}` : "" };
      }
      return { route: "myPortfolios", search: "" };
    }
    case "auth-registered":
      return { route: "signIn", search: query(returnTo) };
    case "forbidden-ht":
    case "forbidden-tt":
    case "choose-plan-page":
      return { route: "index", search: "" };
    case "forbidden-trial":
    case "subscribed":
      return { route: "choosePlan", search: query(returnTo) };
    case "monkey-permission":
      return { route: "choosePlan", search: query({ ...returnTo, stc: "simMonk" }) };
    case "portfolio-creation":
      return { route: "createQ1", search: "" };
    case "portfolio-created":
      return { route: "myPortfolios", search: "" };
  }
}

/** Follows the redirects from `start` until every guard of the route passes. */
function expectedEnd(start: RouteId, locale: Locale, who: Account): Place {
  let place: Place = { route: start, search: "" };
  for (let hop = 0; hop < 10; hop++) {
    const route = routes[place.route];
    const failed = guardOrder.find(
      (g) => (route.guards as readonly Guard[]).includes(g) && !passes(g, who),
    );
    if (!failed) return place;
    place = redirect(failed, `${route[locale]}${place.search}`, locale);
  }
  throw new Error(`redirect loop from ${start}`);
}

interface Person {
  readonly label: string;
  readonly email: string | null;
  readonly account: Account;
  /** Half the kinds run in Spanish, so both languages are covered without doubling the run. */
  readonly locale: Record<Edition, Locale>;
  /** The tt edition repeats the kinds whose rules depend on the edition's partner. */
  readonly editions: readonly Edition[];
}

const standard = { kind: "standard", trial: false, subscribed: false, banana: false } as const;

/** The demo accounts (README, "Demo accounts"); all of them accepted the current policy. */
const people: readonly Person[] = [
  {
    label: "guest",
    email: null,
    account: null,
    locale: { ht: "en", tt: "es" },
    editions: ["ht", "tt"],
  },
  {
    label: "free",
    email: "free@demo.test",
    account: standard,
    locale: { ht: "es", tt: "en" },
    editions: ["ht"],
  },
  {
    label: "subscribed to simAssets",
    email: "assets-standard@demo.test",
    account: { ...standard, subscribed: true },
    locale: { ht: "en", tt: "es" },
    editions: ["ht"],
  },
  {
    label: "trial",
    email: "trial@demo.test",
    account: { ...standard, trial: true },
    locale: { ht: "es", tt: "en" },
    editions: ["ht"],
  },
  {
    label: "banana permission",
    email: "banana@demo.test",
    account: { ...standard, banana: true },
    locale: { ht: "en", tt: "es" },
    editions: ["ht"],
  },
  {
    label: "HT",
    email: "ht@demo.test",
    account: { ...standard, kind: "HT", subscribed: true },
    locale: { ht: "es", tt: "en" },
    editions: ["ht"],
  },
  {
    label: "TT",
    email: "tt@demo.test",
    account: { ...standard, kind: "TT", subscribed: true },
    locale: { ht: "en", tt: "es" },
    editions: ["ht", "tt"],
  },
];

type Tab = Awaited<ReturnType<typeof openServerTab>>;

const where = (tab: Tab) =>
  `${tab.router.state.location.pathname}${tab.router.state.location.search}`;

async function signIn(server: TabServer, locale: Locale, email: string): Promise<Tab> {
  const tab = await signInThroughScreen(server, locale, email);
  // A signed-in person on the sign-in page goes to my portfolios (auth-guest).
  await waitFor(() => expect(where(tab)).toBe(routes.myPortfolios[locale]), { timeout: 10_000 });
  await waitFor(() =>
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe(
      routes.myPortfolios.title[locale],
    ),
  );
  return tab;
}

afterEach(() => {
  cleanup();
  sessionStorage.clear();
  for (const name of ["auth", "lang"])
    document.cookie = `${name}=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT`;
});

describe.each(["ht", "tt"] as const)("route guards by kind of person (%s)", (edition: Edition) => {
  let server: TabServer;
  beforeAll(async () => {
    server = await openTabServer(edition);
  });
  afterAll(() => server?.close());

  for (const person of people.filter((p) => p.editions.includes(edition))) {
    it(`${person.label}${person.email ? ` (${person.email})` : ""}`, async () => {
      const locale = person.locale[edition];
      // One tab (the sign-in, or home for a guest), then thirteen routes opened in the app.
      const tab = person.email
        ? await signIn(server, locale, person.email)
        : await openServerTab(server, routes.index[locale]);
      const missed: string[] = [];
      for (const start of opened) {
        const end = expectedEnd(start, locale, person.account);
        const from = routes[start][locale];
        const to = `${routes[end.route][locale]}${end.search}`;
        const title = routes[end.route].title[locale];
        await tab.router.navigate(from);
        // First the address the guards end on, then the screen of the end route, which renders
        // only once its guards pass (the previous step may show the same screen).
        await waitFor(
          () => {
            expect(where(tab)).toBe(to);
            expect(screen.getByRole("heading", { level: 1 }).textContent).toBe(title);
          },
          { timeout: 5_000 },
        ).catch(() =>
          missed.push(
            `${person.label} opening ${from}: expected ${to} "${title}", at ${where(tab)} "${
              screen.queryByRole("heading", { level: 1 })?.textContent ?? "no heading"
            }"`,
          ),
        );
      }
      expect(missed).toEqual([]);
    }, 60_000);
  }
});
