// @vitest-environment jsdom
// Route-level checks of both editions (they were page loads in the browser suite): the public
// routes with their titles, the guest's redirects to sign-in, and the 404 screen for paths that
// are not routes. The whole app in a memory router, with the real route guards.
import { cleanup, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { Edition, Locale } from "../../src/contract/common.ts";
import { guestFacts, renderApp, testServices } from "../support/render-app.tsx";

afterEach(() => {
  cleanup();
  document.cookie = "lang=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT";
});

const brandNames: Record<Edition, string> = { ht: "hollytools", tt: "TwoTails" };

/** Every route a guest may open, with its title in English and in Spanish (locales/es). */
const publicRoutes: readonly { path: string; title: string }[] = [
  { path: "/en/markets", title: "Markets" },
  { path: "/es/mercados", title: "Mercados" },
  { path: "/en/forgot-password", title: "Forgot your password?" },
  { path: "/es/olvide-contrasena", title: "¿Has olvidado tu contraseña?" },
  { path: "/en/recover-password", title: "Choose a new password" },
  { path: "/es/recuperar-contrasena", title: "Elige una nueva contraseña" },
  { path: "/en/sign-in", title: "Sign in" },
  { path: "/es/acceso-de-usuario", title: "Acceder" },
  { path: "/en/sign-up", title: "Create your account" },
  { path: "/es/registro-de-usuario", title: "Crea tu cuenta" },
  { path: "/en/_health", title: "System status" },
  { path: "/es/_health", title: "Estado del sistema" },
  { path: "/en/confirm-email", title: "Confirm your email" },
  { path: "/es/confirmar-email", title: "Confirma tu email" },
  { path: "/en/payment-complete", title: "Payment complete" },
  { path: "/es/pago-realizado", title: "Pago realizado" },
  { path: "/en/choose-your-plan", title: "Choose your plan" },
  { path: "/es/elige-tu-plan", title: "Elige tu plan" },
];

/** A guest opening a private route goes to sign-in, with where they were going in returnTo. */
const guestRedirects: readonly { from: string; to: string; locale: Locale }[] = [
  {
    from: "/en/my-account/portfolios",
    to: "/en/sign-in?returnTo=%2Fen%2Fmy-account%2Fportfolios",
    locale: "en",
  },
  {
    from: "/es/mi-cuenta/carteras",
    to: "/es/acceso-de-usuario?returnTo=%2Fes%2Fmi-cuenta%2Fcarteras",
    locale: "es",
  },
  // auth-registered is checked before portfolio-creation: sign-in, not question 1.
  {
    from: "/en/create-portfolio/q2",
    to: "/en/sign-in?returnTo=%2Fen%2Fcreate-portfolio%2Fq2",
    locale: "en",
  },
  {
    from: "/es/crear-cartera/p2",
    to: "/es/acceso-de-usuario?returnTo=%2Fes%2Fcrear-cartera%2Fp2",
    locale: "es",
  },
  // A valid portfolio id: the guards run (no 404), and the query string is kept in returnTo.
  {
    from: "/en/my-account/portfolios/portfolio-12?tab=risk",
    to: "/en/sign-in?returnTo=%2Fen%2Fmy-account%2Fportfolios%2Fportfolio-12%3Ftab%3Drisk",
    locale: "en",
  },
];

const unknownPaths: readonly { path: string; locale: Locale }[] = [
  { path: "/en/does-not-exist", locale: "en" },
  { path: "/es/no-existe", locale: "es" },
  // A portfolio id must be a positive integer without leading zeros.
  { path: "/en/my-account/portfolios/portfolio-abc", locale: "en" },
  { path: "/es/mi-cuenta/carteras/cartera-0", locale: "es" },
  { path: "/en/my-account/portfolios/portfolio-007", locale: "en" },
  // The language prefix must match the path's language.
  { path: "/en/mercados", locale: "en" },
  { path: "/es/markets", locale: "es" },
];

const signInTitle: Record<Locale, string> = { en: "Sign in", es: "Acceder" };
const notFound: Record<Locale, { message: string; back: string }> = {
  en: { message: "Page Not Found", back: "Go back" },
  es: { message: "Página no encontrada", back: "Volver" },
};

const openAsGuest = (path: string, edition: Edition) =>
  renderApp(path, {
    facts: { ...guestFacts, edition },
    services: testServices(edition),
  });

describe.each(["ht", "tt"] as const)("routes of the %s edition", (edition) => {
  describe("public routes", () => {
    it.each(publicRoutes)("$path shows “$title”", async ({ path, title }) => {
      const { router } = await openAsGuest(path, edition);
      expect(await screen.findByRole("heading", { level: 1, name: title })).toBeTruthy();
      expect(router.state.location.pathname).toBe(path);
      await waitFor(() => expect(document.title).toBe(`${title} · ${brandNames[edition]}`));
      expect(document.documentElement.lang).toBe(path.slice(1, 3));
    });

    it("accepts a trailing slash", async () => {
      await openAsGuest("/es/mercados/", edition);
      expect(await screen.findByRole("heading", { level: 1, name: "Mercados" })).toBeTruthy();
    });
  });

  describe("route guards for a guest", () => {
    it.each(guestRedirects)("$from redirects to sign-in", async ({ from, to, locale }) => {
      const { router } = await openAsGuest(from, edition);
      await waitFor(() =>
        expect(router.state.location.pathname + router.state.location.search).toBe(to),
      );
      expect(
        await screen.findByRole("heading", { level: 1, name: signInTitle[locale] }),
      ).toBeTruthy();
      expect(document.documentElement.lang).toBe(locale);
    });

    it("the redirect replaces the guarded page in the history", async () => {
      const { router } = await openAsGuest("/en/markets", edition);
      await screen.findByRole("heading", { level: 1, name: "Markets" });
      await router.navigate("/en/my-account/portfolios");
      await waitFor(() => expect(router.state.location.pathname).toBe("/en/sign-in"));
      await router.navigate(-1);
      await waitFor(() => expect(router.state.location.pathname).toBe("/en/markets"));
      expect(await screen.findByRole("heading", { level: 1, name: "Markets" })).toBeTruthy();
    });
  });

  describe("not found", () => {
    it.each(unknownPaths)(
      "$path shows the 404 error screen in $locale",
      async ({ path, locale }) => {
        const { router } = await openAsGuest(path, edition);
        expect(await screen.findByRole("heading", { level: 1, name: "Error 404" })).toBeTruthy();
        expect(screen.getByText(notFound[locale].message, { exact: true })).toBeTruthy();
        expect(screen.getByRole("button", { name: notFound[locale].back })).toBeTruthy();
        // The empty-center layout: no site navigation, header or footer.
        expect(screen.queryByRole("navigation")).toBeNull();
        expect(screen.queryByRole("link", { name: signInTitle[locale] })).toBeNull();
        expect(screen.queryByRole("contentinfo")).toBeNull();
        expect(document.documentElement.lang).toBe(locale);
        await waitFor(() => expect(document.title).toBe(`Error 404 · ${brandNames[edition]}`));
        expect(router.state.location.pathname).toBe(path);
      },
    );

    it("the 404 screen shows the edition's logo", async () => {
      const first = await openAsGuest("/en/does-not-exist", edition);
      expect((await screen.findByRole("main")).textContent).toContain(brandNames[edition]);
      first.unmount();
      await openAsGuest("/es/no-existe", edition);
      expect((await screen.findByRole("main")).textContent).toContain(brandNames[edition]);
    });
  });
});
