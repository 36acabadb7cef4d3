import { mkdirSync } from "node:fs";
import path from "node:path";
import { test as base, expect, type Page } from "@playwright/test";

export type Edition = "ht" | "tt";
export type Locale = "en" | "es";

export interface E2eOptions {
  /** The edition the project's server runs (set per project in playwright.config.ts). */
  edition: Edition;
}

export const test = base.extend<E2eOptions>({
  edition: ["ht", { option: true }],
});

export { expect };

/** Brand names are not translated (src/ui/editions.ts). */
export const brandNames: Record<Edition, string> = { ht: "hollytools", tt: "TwoTails" };

/** The primary colour of each edition, as the browser computes it (src/ui/editions.ts). */
export const primaryColours: Record<Edition, string> = {
  ht: "rgb(11, 93, 85)",
  tt: "rgb(61, 44, 141)",
};

export const locales: readonly Locale[] = ["en", "es"];

export const marketsPath: Record<Locale, string> = { en: "/en/markets", es: "/es/mercados" };

/** Texts a person sees, in both languages (English source, Spanish from locales/es/messages.po). */
export const texts = {
  homeTitle: { en: "Home", es: "Inicio" },
  homeHeading: { en: "Invest with your eyes open", es: "Invierte con los ojos abiertos" },
  homeLead: {
    en: "builds a portfolio from three questions and shows you its risk in plain words and clear charts.",
    es: "construye una cartera a partir de tres preguntas y te muestra su riesgo con palabras sencillas y gráficos claros.",
  },
  pageNotFound: { en: "Page Not Found", es: "Página no encontrada" },
  goBack: { en: "Go back", es: "Volver" },
  markets: { en: "Markets", es: "Mercados" },
  systemStatus: { en: "System status", es: "Estado del sistema" },
  signIn: { en: "Sign in", es: "Acceder" },
  menu: { en: "Menu", es: "Menú" },
  mainNavigation: { en: "Main", es: "Principal" },
  weUseCookies: { en: "We use cookies", es: "Usamos cookies" },
  acceptAll: { en: "Accept all", es: "Aceptar todo" },
  rejectAll: { en: "Reject all", es: "Rechazar todo" },
  cookieSettings: { en: "Cookie settings", es: "Configuración de cookies" },
  cookiePreferences: { en: "Cookie preferences", es: "Preferencias de cookies" },
  savePreferences: { en: "Save preferences", es: "Guardar preferencias" },
  marketingAndChat: { en: "Marketing and chat", es: "Marketing y chat" },
} as const satisfies Record<string, Record<Locale, string>>;

/**
 * Saves a full-page screenshot when E2E_SHOTS_DIR is set (for looking at the pages by eye);
 * nothing otherwise. The folder should be outside the repository.
 */
export async function saveShot(page: Page, name: string): Promise<void> {
  const dir = process.env.E2E_SHOTS_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: true });
}

/**
 * Holds the app's entry script (and only it) back until `release` is called, so the page stays
 * the prerendered markup a person sees before the app takes over. `requested` tells whether the
 * browser has asked for the script yet.
 */
export async function holdEntryScript(
  page: Page,
): Promise<{ release: () => void; requested: () => boolean }> {
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  let requested = false;
  await page.route(/\/assets\/index-[^/]+\.js$/, async (route) => {
    requested = true;
    await released;
    await route.continue();
  });
  return { release, requested: () => requested };
}

/** The mark the app sets once it has taken over the page (src/app/app.tsx): `html[data-mounted]`. */
export const mountMark = (page: Page) => page.locator("html[data-mounted]");

/** Waits until the app has taken over the page. */
export async function appMounted(page: Page): Promise<void> {
  await mountMark(page).waitFor({ state: "attached" });
}
