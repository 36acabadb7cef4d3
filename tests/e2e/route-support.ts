// What the route checks (tests/e2e/route-checks.spec.ts) and the gallery (scripts/gallery.ts) share:
// every route of the route table, read from src/app/route-table.ts itself (so a route added later is
// picked up without editing anything here), the account kind whose guards let it in, and the
// English / Spanish catalogue texts the language check looks for.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { AccessFacts, AccountFacts } from "../../machines/guards/access-facts.ts";
import { routeGuards, type RouteGuardName } from "../../machines/guards/route-guards.ts";
import type { Edition, Locale } from "./fixtures.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

export interface TableRoute {
  readonly id: string;
  readonly paths: Readonly<Record<Locale, string>>;
  readonly guards: readonly RouteGuardName[];
}

/**
 * The routes of src/app/route-table.ts (the module itself cannot be imported here: its titles are
 * Lingui macros, compiled only by the app's build). Each `defineRoute(id, en, es, guards, …)` call
 * is read from the source; guards given as a constant of the file are resolved. When the build's
 * own list of routes (first-page.json, written from the same table) is there, both must agree, so
 * a call this reader misses fails the run instead of going unchecked.
 */
export function tableRoutes(): TableRoute[] {
  const source = readFileSync(path.join(root, "src/app/route-table.ts"), "utf8");
  const constants = new Map<string, string[]>();
  for (const m of source.matchAll(/const\s+(\w+)\s*=\s*(\[\s*(?:"[^"]*"\s*,?\s*)*\])/g))
    constants.set(m[1]!, parseList(m[2]!));
  const routes: TableRoute[] = [];
  const call =
    /defineRoute\(\s*"([^"]+)",\s*"([^"]*)",\s*"([^"]*)",\s*(\[[^\]]*\]|[A-Za-z_$][\w$]*)\s*,/g;
  for (const m of source.matchAll(call)) {
    const guards = m[4]!.startsWith("[") ? parseList(m[4]!) : constants.get(m[4]!);
    if (!guards) throw new Error(`route-table.ts: the guards "${m[4]}" of ${m[1]} are not a list`);
    routes.push({ id: m[1]!, paths: { en: m[2]!, es: m[3]! }, guards: guards as RouteGuardName[] });
  }
  const calls = source.match(/defineRoute\(/g)?.length ?? 0;
  if (routes.length !== calls)
    throw new Error(`route-table.ts: read ${routes.length} of ${calls} defineRoute calls`);
  const firstPage = path.resolve(root, process.env.E2E_DIST_DIR || "dist", "first-page.json");
  if (existsSync(firstPage)) {
    const built = (JSON.parse(readFileSync(firstPage, "utf8")) as { routes: { id: string }[] })
      .routes;
    const read = new Set(routes.map((r) => r.id));
    const missing = built.filter((r) => !read.has(r.id)).map((r) => r.id);
    if (missing.length)
      throw new Error(`routes of the build not read from route-table.ts: ${missing.join(", ")}`);
  }
  return routes;
}

function parseList(text: string): string[] {
  return JSON.parse(text.replace(/,\s*\]$/, "]")) as string[];
}

/** The demo accounts (src/server/accounts/seed.ts) the checks sign in as, with their facts. */
export interface CheckAccount {
  readonly email: string | null;
  readonly facts: AccountFacts | null;
}

const guest: CheckAccount = { email: null, facts: null };
const allAdvanced: CheckAccount = {
  email: "all-advanced@demo.test",
  facts: {
    kind: "standard",
    trial: false,
    subscribedProducts: ["simAssets", "simIndices", "simMonk"],
    bananaPermission: true,
    policiesAccepted: true,
  },
};
const student: CheckAccount = {
  email: "tt@demo.test",
  facts: {
    kind: "TT",
    trial: false,
    subscribedProducts: ["simAssets"],
    bananaPermission: false,
    policiesAccepted: true,
  },
};
const partner: CheckAccount = {
  email: "ht@demo.test",
  facts: {
    kind: "HT",
    trial: false,
    subscribedProducts: ["simAssets"],
    bananaPermission: false,
    policiesAccepted: true,
  },
};

/** In the order tried: a guest first, then the edition's own partner kind, then a full account. */
export const candidateAccounts: Record<Edition, readonly CheckAccount[]> = {
  ht: [guest, partner, allAdvanced],
  tt: [guest, student, allAdvanced],
};

/** What a route needs in the portfolio workspace before it opens. */
export type Workspace = "none" | "creation" | "loaded";

export interface RoutePlan {
  readonly account: CheckAccount;
  readonly workspace: Workspace;
}

/**
 * The first candidate account every guard of the route lets in (the guards' own checks of
 * machines/guards/route-guards.ts, on the account's facts), and the workspace the route needs
 * (portfolio-creation: a wizard under way; portfolio-created: a portfolio opened). Null when no
 * account of the edition may open it (e.g. a route forbidden to everyone in that edition).
 */
export function planFor(route: TableRoute, edition: Edition): RoutePlan | null {
  const workspace: Workspace = route.guards.includes("portfolio-creation")
    ? "creation"
    : route.guards.includes("portfolio-created")
      ? "loaded"
      : "none";
  for (const account of candidateAccounts[edition]) {
    // Only an account can create or open a portfolio.
    if (workspace !== "none" && !account.facts) continue;
    const facts: AccessFacts = {
      edition,
      product: "simAssets",
      session: account.facts ? "signedIn" : "signedOut",
      account: account.facts,
      creationInProgress: workspace === "creation",
      portfolioLoaded: workspace === "loaded",
    };
    if (route.guards.every((g) => routeGuards[g].check(facts) === "pass"))
      return { account, workspace };
  }
  return null;
}

/** A path of the route in the language, `{id}` replaced. */
export function routePath(route: TableRoute, locale: Locale, id: string | null): string {
  const p = route.paths[locale].replace("{id}", id ?? "1");
  return `/${locale}${p}`;
}

/** Catalogue texts: English source texts that are not Spanish, and Spanish texts that are not English. */
export interface LanguageTexts {
  readonly en: readonly string[];
  readonly es: readonly string[];
}

/** Reads msgid / msgstr pairs of a .po file (multi-line strings joined). */
function poEntries(file: string): { id: string; str: string }[] {
  const out: { id: string; str: string }[] = [];
  let id: string | null = null;
  let str: string | null = null;
  let field: "id" | "str" | null = null;
  const unquote = (s: string) => JSON.parse(s) as string;
  const flush = () => {
    if (id && str !== null) out.push({ id, str });
    id = null;
    str = null;
    field = null;
  };
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (line.startsWith("msgid ")) {
      flush();
      id = unquote(line.slice(6));
      field = "id";
    } else if (line.startsWith("msgstr ")) {
      str = unquote(line.slice(7));
      field = "str";
    } else if (line.startsWith('"') && field) {
      if (field === "id") id = (id ?? "") + unquote(line);
      else str = (str ?? "") + unquote(line);
    } else if (line.trim() === "") flush();
  }
  flush();
  return out;
}

/**
 * From locales/es/messages.po: the English texts (msgid) whose Spanish differs and that are not a
 * Spanish text themselves ("Email" is both), and the Spanish texts that are not an English one.
 * Only texts with at least one word of four letters count (short codes and symbols are shared).
 */
export function languageTexts(): LanguageTexts {
  const entries = poEntries(path.join(root, "locales/es/messages.po")).filter((e) => e.str !== "");
  const ids = new Set(entries.map((e) => e.id));
  const strs = new Set(entries.map((e) => e.str));
  const wordy = (s: string) => /\p{L}{4,}/u.test(s.replace(/\{[^}]*\}/g, ""));
  const plain = (s: string) => !/\{\w+,\s*(plural|select)/.test(s) && !/<\d+>/.test(s);
  return {
    en: entries
      .filter((e) => e.str !== e.id && !strs.has(e.id) && wordy(e.id) && plain(e.id))
      .map((e) => e.id),
    es: entries
      .filter((e) => e.str !== e.id && !ids.has(e.str) && wordy(e.str) && plain(e.str))
      .map((e) => e.str),
  };
}
