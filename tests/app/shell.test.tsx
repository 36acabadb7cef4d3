// @vitest-environment jsdom
import { cleanup, screen, waitFor } from "@testing-library/react";
import { setupI18n } from "@lingui/core";
import { afterEach, describe, expect, it } from "vitest";
import { messages as en } from "../../locales/en/messages.po";
import { messages as es } from "../../locales/es/messages.po";
import { buildPath } from "../../src/app/paths.ts";
import { routeTable } from "../../src/app/route-table.ts";
import { guestFacts, memberFacts, renderApp } from "../support/render-app.tsx";

afterEach(() => {
  cleanup();
  document.cookie = "lang=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT";
});

/** An i18n of its own per language, so expectations do not depend on the app's active one. */
const catalogs = {
  en: setupI18n({ locale: "en", messages: { en } }),
  es: setupI18n({ locale: "es", messages: { es } }),
};

describe("the app shell", () => {
  it.each([
    ["/en/does-not-exist", "Page Not Found"],
    ["/es/no-existe", "Página no encontrada"],
    ["/en/my-account/portfolios/portfolio-abc", "Page Not Found"],
    ["/es/mi-cuenta/carteras/cartera-0", "Página no encontrada"],
    ["/fr/markets", "Page Not Found"],
  ])("shows the 404 error screen for %s", async (path, message) => {
    await renderApp(path, { facts: memberFacts });
    expect(await screen.findByRole("heading", { level: 1, name: "Error 404" })).toBeTruthy();
    expect(screen.getByText(message)).toBeTruthy();
    expect(
      screen.getByRole("button", { name: path.startsWith("/es") ? "Volver" : "Go back" }),
    ).toBeTruthy();
    // Empty-center layout: no site navigation.
    expect(screen.queryByRole("navigation")).toBeNull();
  });

  it("renders every route's title in English and in Spanish", async () => {
    for (const route of routeTable) {
      for (const locale of ["en", "es"] as const) {
        const facts = route.guards.includes("auth-guest") ? guestFacts : memberFacts;
        const { unmount } = await renderApp(buildPath(route, locale, { id: "3" }), { facts });
        const title = catalogs[locale]._(route.title);
        await waitFor(() => expect(document.title).toBe(`${title} · hollytools`));
        expect(document.documentElement.lang).toBe(locale);
        unmount();
      }
    }
  });

  it("remembers the language in a cookie for 365 days", async () => {
    const writes: string[] = [];
    const descriptor = Object.getOwnPropertyDescriptor(Document.prototype, "cookie")!;
    Object.defineProperty(document, "cookie", {
      configurable: true,
      get: () => descriptor.get!.call(document),
      set: (value: string) => {
        writes.push(value);
        descriptor.set!.call(document, value);
      },
    });
    try {
      await renderApp("/es/mercados");
      await screen.findByRole("heading", { level: 1, name: "Mercados" });
      const write = writes.find((w) => w.startsWith("lang=es"));
      expect(write).toBeDefined();
      const expires = new Date(/Expires=([^;]+)/.exec(write!)![1]!).getTime();
      expect(Math.round((expires - Date.now()) / 86_400_000)).toBe(365);
    } finally {
      delete (document as { cookie?: string }).cookie;
    }
  });

  it("shows home at /, in the remembered language", async () => {
    document.cookie = "lang=es; Path=/";
    await renderApp("/", { locale: "es" });
    expect(
      await screen.findByRole("heading", { level: 1, name: "Invierte con los ojos abiertos" }),
    ).toBeTruthy();
  });

  it("offers the same screen in the other language", async () => {
    await renderApp("/en/markets");
    const link = await screen.findByRole("link", { name: "Español" });
    expect(link.getAttribute("href")).toBe("/es/mercados");
  });

  it("sends a guest to sign-in, keeping the requested path", async () => {
    const { router } = await renderApp("/es/mi-cuenta/carteras", { facts: guestFacts });
    await waitFor(() => expect(router.state.location.pathname).toBe("/es/acceso-de-usuario"));
    expect(router.state.location.search).toBe("?returnTo=%2Fes%2Fmi-cuenta%2Fcarteras");
  });

  it("waits for the session before deciding", async () => {
    const { router } = await renderApp("/en/my-account/portfolios", {
      facts: { ...guestFacts, session: "unknown" },
    });
    expect(await screen.findByRole("status")).toBeTruthy();
    expect(screen.getByText("Loading…")).toBeTruthy();
    expect(router.state.location.pathname).toBe("/en/my-account/portfolios");
  });

  it("shows the error screen when something fails that nobody handled", async () => {
    await renderApp("/en/markets");
    await screen.findByRole("heading", { level: 1, name: "Markets" });
    const event = new Event("unhandledrejection") as Event & { reason?: unknown };
    event.reason = new Error("boom");
    window.dispatchEvent(event);
    expect(await screen.findByRole("heading", { level: 1, name: "Error 500" })).toBeTruthy();
    expect(screen.getByText("Something went wrong. Please try again.")).toBeTruthy();
  });
});
