import type { Page } from "@playwright/test";
import { signInThroughScreen } from "./accounts-support.ts";
import { appMounted, expect, test, texts, type Edition, type Locale } from "./fixtures.ts";

/**
 * Route guards by kind of person: every demo kind opens one route per guard, and the browser must
 * end where the rules of machines/guards/route-guards.ts send it. The expected place is worked out
 * here, from the rules as PRODUCT.md words them, not taken from the app.
 */

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
  index: { en: "/en", es: "/es", guards: [], title: texts.homeHeading },
  signIn: {
    en: "/en/sign-in",
    es: "/es/acceso-de-usuario",
    guards: ["auth-guest"],
    title: texts.signIn,
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

/** Opens a path as an in-app link does (no page load): the guards then decide where it ends. */
async function openInApp(page: Page, path: string) {
  await page.evaluate((to) => {
    window.history.pushState(null, "", to);
    window.dispatchEvent(new PopStateEvent("popstate", { state: null }));
  }, path);
}

async function signIn(page: Page, locale: Locale, email: string) {
  await signInThroughScreen(page, locale, email);
  // A signed-in person on the sign-in page goes to my portfolios (auth-guest).
  await expect(page).toHaveURL((url) => url.pathname === routes.myPortfolios[locale]);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(
    routes.myPortfolios.title[locale],
  );
}

test.describe("route guards by kind of person", () => {
  for (const person of people) {
    test(`${person.label}${person.email ? ` (${person.email})` : ""}`, async ({
      page,
      baseURL,
      edition,
    }) => {
      test.skip(!person.editions.includes(edition), "the ht run covers this kind");
      // One page load (the sign-in, or home for a guest), then thirteen routes opened in the app.
      test.setTimeout(90_000);
      const locale = person.locale[edition];
      if (person.email) await signIn(page, locale, person.email);
      else {
        await page.goto(routes.index[locale]);
        await appMounted(page);
      }

      for (const start of opened) {
        const end = expectedEnd(start, locale, person.account);
        const from = routes[start][locale];
        const to = `${routes[end.route][locale]}${end.search}`;
        await test.step(`${from} → ${to}`, async () => {
          await openInApp(page, from);
          // First the address the guards end on (the previous step may already show the same
          // screen, so its heading alone would pass before a redirect has happened), then the
          // screen of the end route, which renders only once its guards pass.
          await expect.soft(page, `${person.label} opening ${from}`).toHaveURL(`${baseURL}${to}`);
          await expect
            .soft(page.getByRole("heading", { level: 1 }))
            .toHaveText(routes[end.route].title[locale]);
        });
      }
    });
  }
});
