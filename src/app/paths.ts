import { type Locale, locales } from "../contract/common.ts";
import { type RouteDefinition, type RouteId, routeById, routeTable } from "./route-table.ts";

export type RouteParams = Readonly<Record<string, string>>;

export interface RouteMatch {
  readonly route: RouteDefinition;
  readonly locale: Locale;
  readonly params: RouteParams;
}

/** A positive integer without leading zeros: what a `{id}` placeholder accepts. */
const ID_PATTERN = "([1-9][0-9]{0,15})";

interface CompiledPath {
  readonly route: RouteDefinition;
  readonly locale: Locale;
  readonly regex: RegExp;
  readonly paramNames: readonly string[];
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function compile(route: RouteDefinition, locale: Locale): CompiledPath {
  const template = `/${locale}${route.paths[locale]}`;
  const paramNames: string[] = [];
  const source = template
    .split(/(\{[a-z]+\})/i)
    .map((part) => {
      const name = /^\{([a-z]+)\}$/i.exec(part)?.[1];
      if (!name) return escape(part);
      paramNames.push(name);
      return ID_PATTERN;
    })
    .join("");
  return { route, locale, regex: new RegExp(`^${source}/?$`), paramNames };
}

const compiled: readonly CompiledPath[] = routeTable.flatMap((r) =>
  locales.map((l) => compile(r, l)),
);

/** Finds the route of a path; null when nothing matches or a parameter is invalid (a 404). */
export function matchPath(pathname: string): RouteMatch | null {
  for (const c of compiled) {
    const m = c.regex.exec(pathname);
    if (!m) continue;
    const params = Object.fromEntries(c.paramNames.map((name, i) => [name, m[i + 1] ?? ""]));
    return { route: c.route, locale: c.locale, params };
  }
  return null;
}

/** The language a path is in, from its prefix (`/en/...`, `/es/...`). */
export function localeOfPath(pathname: string): Locale | null {
  const first = pathname.split("/")[1];
  return (locales as readonly string[]).includes(first ?? "") ? (first as Locale) : null;
}

/** The path of a route in a language; throws when a placeholder has no value. */
export function pathFor(id: RouteId, locale: Locale, params: RouteParams = {}): string {
  return buildPath(routeById(id), locale, params);
}

export function buildPath(
  route: RouteDefinition,
  locale: Locale,
  params: RouteParams = {},
): string {
  return `/${locale}${route.paths[locale]}`.replace(/\{([a-z]+)\}/gi, (_, name: string) => {
    const value = params[name];
    if (value === undefined || !new RegExp(`^${ID_PATTERN}$`).test(value)) {
      throw new Error(`Route "${route.id}" needs a valid "${name}"`);
    }
    return value;
  });
}

/** The same screen in another language, keeping the query string and hash. */
export function switchLocalePath(
  pathname: string,
  search: string,
  hash: string,
  to: Locale,
): string {
  const match = matchPath(pathname);
  const path = match ? buildPath(match.route, to, match.params) : `/${to}`;
  return `${path}${search}${hash}`;
}
