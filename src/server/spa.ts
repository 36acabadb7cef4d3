import { readFile } from "node:fs/promises";
import path from "node:path";
import { brotliCompressSync, constants as zlib, gzipSync } from "node:zlib";
import { Hono, type Context, type MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import { serveStatic } from "@hono/node-server/serve-static";
import { type Locale, defaultLocale, locales } from "../contract/common.ts";
import { runtimeConfigOf } from "./config.ts";
import type { AppDeps } from "./app-env.ts";

const CONFIG_PLACEHOLDER = "<!--app-config-->";

/** Written by the build (vite.config.ts, `firstPage`) beside index.html; read by the server only. */
export const FIRST_PAGE_FILE = "first-page.json";

/** What the build knows about each route's first page (docs/performance.md). */
export interface FirstPage {
  readonly routes: readonly {
    readonly id: string;
    /** Paths without the language prefix; `{id}` stands for a positive integer. */
    readonly paths: Readonly<Record<Locale, string>>;
    /** The route's lazy screen and the chunks it needs beyond the entry's. */
    readonly js: readonly string[];
    readonly css: readonly string[];
  }[];
  /** Each language's catalog chunks. */
  readonly catalogs: Readonly<Record<string, readonly string[]>>;
  /** Prerendered markup of the public screens: edition → language → route id → HTML. */
  readonly shells: Readonly<
    Record<string, Readonly<Record<string, Readonly<Record<string, string>>>>>
  >;
  /** The cookie-consent banner's first paint: edition → language → HTML (absent in older builds). */
  readonly consent?: Readonly<Record<string, Readonly<Record<string, string>>>>;
}

/** Embeds the runtime configuration in the page, as data (not script), so no extra request is needed. */
export function injectRuntimeConfig(html: string, deps: Pick<AppDeps, "config">): string {
  const json = JSON.stringify(runtimeConfigOf(deps.config)).replaceAll("<", "\\u003c");
  return html.replace(
    CONFIG_PLACEHOLDER,
    `<script type="application/json" id="app-config">${json}</script>`,
  );
}

const escapeAttr = (s: string) => s.replaceAll("&", "&amp;").replaceAll('"', "&quot;");
const isLocale = (value: string | undefined): value is Locale =>
  (locales as readonly string[]).includes(value ?? "");

/**
 * The page of a route in a language: its screen and catalog preloaded, its markup when prerendered,
 * and the cookie-consent banner for a visitor who has not chosen yet. A prerendered page paints
 * without its scripts, so they are fetched at low priority: they do not compete with what the first
 * paint needs, and the browser does not count them as blocking it (docs/performance.md).
 */
export function injectFirstPage(
  html: string,
  firstPage: FirstPage | null,
  edition: string,
  match: { routeId: string | null; locale: Locale },
  options: { consentBanner?: boolean } = {},
): string {
  const route = firstPage?.routes.find((r) => r.id === match.routeId);
  const shell = match.routeId
    ? firstPage?.shells[edition]?.[match.locale]?.[match.routeId]
    : undefined;
  const priority = shell ? ' fetchpriority="low"' : "";
  const modulePreload = (href: string) =>
    `<link rel="modulepreload"${priority} crossorigin href="${escapeAttr(href)}">`;
  const links = [
    ...(firstPage?.catalogs[match.locale] ?? []).map(modulePreload),
    ...(route?.js ?? []).map(modulePreload),
    ...(route?.css ?? []).map(
      (href) => `<link rel="stylesheet" crossorigin href="${escapeAttr(href)}">`,
    ),
  ];
  let out = html.replace(/<html lang="[^"]*"/, `<html lang="${match.locale}"`);
  if (shell) {
    out = out
      .replaceAll('<script type="module" ', `<script type="module"${priority} `)
      .replaceAll('<link rel="modulepreload" ', `<link rel="modulepreload"${priority} `);
  }
  if (links.length) out = out.replace("</head>", `    ${links.join("\n    ")}\n  </head>`);
  if (shell) out = out.replace('<div id="root"></div>', () => `<div id="root">${shell}</div>`);
  const banner = options.consentBanner ? firstPage?.consent?.[edition]?.[match.locale] : undefined;
  if (banner) out = out.replace("</body>", () => `  ${banner}\n  </body>`);
  return out;
}

const ID_PATTERN = "[1-9][0-9]{0,15}";
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Finds the route and language of a request path, as the client's route table would. */
export function routeOfPath(
  firstPage: FirstPage | null,
  pathname: string,
  preferred: () => Locale,
): { routeId: string | null; locale: Locale } {
  if (pathname === "/") return { routeId: "index", locale: preferred() };
  for (const r of firstPage?.routes ?? []) {
    for (const locale of locales) {
      const source = `/${locale}${r.paths[locale]}`
        .split(/\{[a-z]+\}/i)
        .map(escapeRegExp)
        .join(ID_PATTERN);
      if (new RegExp(`^${source}/?$`).test(pathname)) return { routeId: r.id, locale };
    }
  }
  const first = pathname.split("/")[1];
  return { routeId: null, locale: isLocale(first) ? first : preferred() };
}

/** The language for `/`: the remembered one, else the browser's first, else English (as the client). */
function preferredLocale(c: Context): Locale {
  const cookie = getCookie(c, "lang");
  if (isLocale(cookie)) return cookie;
  const browser = c.req.header("accept-language")?.split(",")[0]?.trim().slice(0, 2);
  return isLocale(browser) ? browser : defaultLocale;
}

/** Which precompressed variant a client takes: brotli, else gzip, else none. */
export function acceptedEncoding(header: string | undefined): "br" | "gzip" | null {
  const accepted = new Map(
    (header ?? "").split(",").map((part) => {
      const [name = "", ...params] = part.trim().toLowerCase().split(";");
      const q = params.map((p) => /^\s*q=([0-9.]+)/.exec(p)?.[1]).find(Boolean);
      return [name.trim(), q === undefined ? 1 : Number(q)] as const;
    }),
  );
  const ok = (name: string) => (accepted.get(name) ?? accepted.get("*") ?? 0) > 0;
  if (ok("br")) return "br";
  if (ok("gzip")) return "gzip";
  return null;
}

interface Page {
  readonly html: string;
  readonly br: Buffer;
  readonly gzip: Buffer;
}

const compressPage = (html: string): Page => ({
  html,
  br: brotliCompressSync(html, { params: { [zlib.BROTLI_PARAM_QUALITY]: 9 } }),
  gzip: gzipSync(html, { level: 9 }),
});

/**
 * Serves the built app: hashed assets for a year (precompressed when the client accepts it), the
 * version file never cached, and every client route as index.html with its route's first page.
 */
export function spaRoutes(deps: AppDeps) {
  const root = path.relative(process.cwd(), deps.config.distDir) || ".";
  let template: Promise<{ html: string; firstPage: FirstPage | null }> | null = null;
  const pages = new Map<string, Page>();
  const load = () =>
    (template ??= Promise.all([
      readFile(path.join(deps.config.distDir, "index.html"), "utf8"),
      readFile(path.join(deps.config.distDir, FIRST_PAGE_FILE), "utf8").then(
        (json) => JSON.parse(json) as FirstPage,
        () => null, // an older build: the page without preloads
      ),
    ]).then(([html, firstPage]) => ({ html: injectRuntimeConfig(html, deps), firstPage })));

  const precompressed = { root, precompressed: true };
  const publicFiles = serveStatic(precompressed);
  const hourly = cacheControl("public, max-age=3600");

  return new Hono()
    .use(
      "/assets/*",
      cacheControl("public, max-age=31536000, immutable"),
      serveStatic(precompressed),
    )
    .use("/builds/*", cacheControl("no-store"), serveStatic({ root }))
    .use("*", async (c, next) => {
      // Files (favicon, logos) are served as they are; a missing file is a 404, not the app.
      if (!hasExtension(c.req.path) || c.req.path.endsWith("/index.html")) return next();
      if (c.req.path === `/${FIRST_PAGE_FILE}`) return c.notFound();
      let served: Response | void = undefined;
      await hourly(c, async () => {
        served = await publicFiles(c, async () => {});
        if (served) c.res = served;
      });
      return served ?? c.notFound();
    })
    .get("*", async (c) => {
      let loaded: Awaited<ReturnType<typeof load>>;
      try {
        loaded = await load();
      } catch {
        template = null;
        return c.text("The app has not been built: run `npm run build`.", 503);
      }
      const match = routeOfPath(loaded.firstPage, c.req.path, () => preferredLocale(c));
      // The library's own cookie: once the visitor has chosen, the page carries no banner.
      const consentBanner = getCookie(c, `${deps.config.edition}_consent`) === undefined;
      const key = `${match.routeId ?? ""}:${match.locale}:${consentBanner ? "banner" : ""}`;
      let page = pages.get(key);
      if (!page) {
        page = compressPage(
          injectFirstPage(loaded.html, loaded.firstPage, deps.config.edition, match, {
            consentBanner,
          }),
        );
        pages.set(key, page);
      }
      c.header("Cache-Control", "no-cache");
      c.header(
        "Vary",
        c.req.path === "/" ? "Accept-Encoding, Accept-Language, Cookie" : "Accept-Encoding, Cookie",
      );
      const encoding = acceptedEncoding(c.req.header("accept-encoding"));
      if (!encoding) return c.html(page.html);
      c.header("Content-Encoding", encoding);
      c.header("Content-Type", "text/html; charset=UTF-8");
      return c.body(new Uint8Array(page[encoding]));
    });
}

/** Sets Cache-Control (and Vary, for files with variants) on a file the next handler served. */
const cacheControl =
  (value: string): MiddlewareHandler =>
  async (c, next) => {
    await next();
    if (!c.res.ok) return;
    c.header("Cache-Control", value);
    const type = c.res.headers.get("content-type") ?? "";
    if (!c.res.headers.get("vary") && /javascript|css|json|svg|text/.test(type))
      c.header("Vary", "Accept-Encoding");
  };

const hasExtension = (p: string) => /\.[a-z0-9]+$/i.test(p);
