// Loaded by the build (vite.config.ts, `firstPage`) through Vite's SSR loader: renders the public
// screens as a signed-out visitor sees them, per edition and language, so the first paint of those
// pages does not wait for JavaScript. The client renders over this markup (createRoot, no hydration).
import { I18nProvider } from "@lingui/react";
import { renderToStaticMarkup, renderToString } from "react-dom/server";
import { prerender } from "react-dom/static";
import { createMemoryRouter, RouterProvider } from "react-router-dom";
import { signedOutFacts } from "../machines/guards/access-facts.ts";
import { AccessFactsProvider } from "../src/app/access-facts.tsx";
import { appRoutes } from "../src/app/app.tsx";
import { inertFirstPage } from "../src/app/first-page-input.ts";
import { consentTexts } from "../src/app/consent.ts";
import { activateLocale, i18n } from "../src/app/i18n.ts";
import { buildPath } from "../src/app/paths.ts";
import { Navigation } from "../src/app/route-follow.ts";
import { routeTable } from "../src/app/route-table.ts";
import { brandOf, ServicesProvider, type AppServices } from "../src/app/services.tsx";
import { createSessionActor } from "../src/app/session/session-actor.ts";
import { createHttpClient } from "../src/client/http.ts";
import { defaultProduct, type Edition, type Locale, locales } from "../src/contract/common.ts";
import type { RuntimeConfig } from "../src/contract/runtime-config.ts";
import { editionBrands } from "../src/ui/editions.ts";

export interface RouteInfo {
  readonly id: string;
  readonly paths: Readonly<Record<Locale, string>>;
  /** The module specifier of the route's lazy screen, as the loader rewrote it. */
  readonly screen: string | null;
}

/** Guards a signed-out visitor passes (edition guards are checked per edition). */
const publicGuards = new Set(["auth-guest", "forbidden-ht", "forbidden-tt"]);

/** Every route: its id, paths and screen module (read from the loader's rewritten import). */
export function routeInfos(): RouteInfo[] {
  return routeTable.map((r) => ({
    id: r.id,
    paths: r.paths,
    screen:
      "screen" in r
        ? (/import\w*\(\s*["'`]([^"'`]+)["'`]/.exec(String(r.screen))?.[1] ?? null)
        : null,
  }));
}

function services(edition: Edition): AppServices {
  const config: RuntimeConfig = {
    edition,
    apiBase: "/api",
    marketingScriptUrl: null,
    recaptchaSiteKey: null,
    outboxPage: false,
  };
  // Nothing may be fetched while prerendering: a request stays pending.
  const http = createHttpClient({
    baseURL: "http://prerender.invalid/api",
    edition,
    locale: () => "en",
    product: () => defaultProduct,
    onUnauthorized: () => {},
    fetch: () => new Promise<Response>(() => {}),
    retryDelayMs: 0,
  });
  const session = createSessionActor({
    http,
    navigate: () => {},
    locale: () => "en",
    currentPath: () => "/",
    clearUserState: () => {},
  });
  return {
    config,
    brand: brandOf(config),
    product: () => defaultProduct,
    app: null,
    session,
    cache: null,
    http,
    portfolios: null,
    products: null,
    navigation: new Navigation(),
  };
}

async function renderPath(edition: Edition, locale: Locale, url: string): Promise<string> {
  await activateLocale(locale);
  const router = createMemoryRouter(appRoutes, { initialEntries: [url] });
  const app = (
    <I18nProvider i18n={i18n}>
      <ServicesProvider services={services(edition)}>
        <AccessFactsProvider facts={signedOutFacts(edition, defaultProduct)}>
          <RouterProvider router={router} />
        </AccessFactsProvider>
      </ServicesProvider>
    </I18nProvider>
  );
  // `prerender` waits for the lazy screen; its output is a whole stream, read here as text.
  const { prelude } = await prerender(app);
  const html = await new Response(prelude).text();
  return inertFirstPage(html || renderToString(app));
}

/** The markup of every public screen without parameters: edition → language → route id → HTML. */
export async function prerenderShells(
  editions: readonly Edition[],
): Promise<Record<string, Record<string, Record<string, string>>>> {
  const out: Record<string, Record<string, Record<string, string>>> = {};
  for (const edition of editions) {
    for (const locale of locales) {
      for (const r of routeTable) {
        if (!("screen" in r) || r.paths.en.includes("{")) continue;
        const guards: readonly string[] = r.guards;
        if (!guards.every((g) => publicGuards.has(g) && g !== `forbidden-${edition}`)) continue;
        const html = await renderPath(edition, locale, buildPath(r, locale));
        ((out[edition] ??= {})[locale] ??= {})[r.id] = html;
      }
    }
  }
  return out;
}

/**
 * The cookie-consent banner as vanilla-cookieconsent draws it (same elements, classes and texts),
 * for the first page of a visitor who has not chosen yet: it paints with the page, and the library
 * replaces it when it starts (src/app/consent.ts). Its buttons are disabled until the app's script
 * can remember a click on them (`watchFirstPageBanner`): before that a click would be lost and the
 * banner would stay after the visitor had chosen. Edition → language → HTML.
 */
export async function prerenderConsentBanners(
  editions: readonly Edition[],
): Promise<Record<string, Record<string, string>>> {
  const out: Record<string, Record<string, string>> = {};
  for (const edition of editions) {
    for (const locale of locales) {
      await activateLocale(locale);
      const t = consentTexts(i18n, editionBrands[edition].name).consentModal;
      const button = (role: string, label: string, secondary = false) => (
        <button
          type="button"
          className={secondary ? "cm__btn cm__btn--secondary" : "cm__btn"}
          data-role={role}
          disabled
        >
          <span>{label}</span>
        </button>
      );
      (out[edition] ??= {})[locale] = renderToStaticMarkup(
        <div id="cc-main" data-nosnippet="" data-first-page="">
          <div className="cm-wrapper">
            <div
              className="cm cm--box cm--bottom cm--right"
              role="dialog"
              aria-modal="true"
              aria-describedby="cm__desc"
              aria-labelledby="cm__title"
            >
              <div className="cm__body">
                <div className="cm__texts">
                  <h2 id="cm__title" className="cm__title">
                    {t.title}
                  </h2>
                  <p id="cm__desc" className="cm__desc">
                    {t.description}
                  </p>
                </div>
                <div className="cm__btns">
                  <div className="cm__btn-group">
                    {button("all", t.acceptAllBtn)}
                    {button("necessary", t.acceptNecessaryBtn)}
                  </div>
                  <div className="cm__btn-group">{button("show", t.showPreferencesBtn, true)}</div>
                </div>
              </div>
            </div>
          </div>
        </div>,
      );
    }
  }
  return out;
}
