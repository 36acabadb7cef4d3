// @vitest-environment jsdom
// What the accounts screens say when something is wrong, in both languages and editions, at route
// level: the real app answered by the real server in-process (tests/support/server-tab.tsx). A
// wrong password, links that are not valid any more, links that work once only, and a session the
// server has ended (401). (They were browser walks; nothing in them needs a browser. The sign-up
// form's refusals stay in tests/e2e/accounts-errors.spec.ts: its proof of work runs in the page.)
import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Edition, Locale } from "../../src/contract/common.ts";
import { DEMO_PASSWORD } from "../../src/server/accounts/seed.ts";
import {
  newBrowser,
  openServerTab,
  openTabServer,
  type TabBrowser,
  type TabServer,
} from "../support/server-tab.tsx";

const paths = {
  signIn: { en: "/en/sign-in", es: "/es/acceso-de-usuario" },
  confirmEmail: { en: "/en/confirm-email", es: "/es/confirmar-email" },
  profile: { en: "/en/my-account/profile", es: "/es/mi-cuenta/perfil" },
  forgotPassword: { en: "/en/forgot-password", es: "/es/olvide-contrasena" },
  recoverPassword: { en: "/en/recover-password", es: "/es/recuperar-contrasena" },
} as const;

const t = {
  signIn: { en: "Sign in", es: "Acceder" },
  mainNavigation: { en: "Main", es: "Principal" },
  email: { en: "Email", es: "Email" },
  password: { en: "Password", es: "Contraseña" },
  confirmPassword: { en: "Confirm the password", es: "Confirma la contraseña" },
  newPassword: { en: "New password", es: "Nueva contraseña" },
  saveNewPassword: { en: "Save the new password", es: "Guardar la nueva contraseña" },
  wrongCredentials: {
    en: "The email or the password is not correct.",
    es: "El email o la contraseña no son correctos.",
  },
  invalidLink: {
    en: "This link is not valid any more. Ask for a new one.",
    es: "Este enlace ya no es válido. Pide uno nuevo.",
  },
  profile: { en: "Profile", es: "Perfil" },
  signOut: { en: "Sign out", es: "Cerrar sesión" },
  city: { en: "City", es: "Ciudad" },
  saveDetails: { en: "Save my details", es: "Guardar mis datos" },
  sendLinkAgain: { en: "Send the link again", es: "Enviar el enlace de nuevo" },
  linkOnItsWay: {
    en: "If that email has an account waiting for confirmation, a new link is on its way.",
    es: "Si ese email tiene una cuenta pendiente de confirmar, le llegará un enlace nuevo.",
  },
  confirmSubject: { en: "Confirm your email for", es: "Confirma tu email en" },
  emailConfirmed: {
    en: "Your email is confirmed. Welcome!",
    es: "Tu email está confirmado. ¡Te damos la bienvenida!",
  },
  sendMeTheLink: { en: "Send me the link", es: "Envíame el enlace" },
  recoverLinkOnItsWay: {
    en: "If an account uses that email, a link to choose a new password is on its way. It expires in 1 hour.",
    es: "Si alguna cuenta usa ese email, le llegará un enlace para elegir una nueva contraseña. Caduca en 1 hora.",
  },
  recoverSubject: { en: "Choose a new password for", es: "Elige una nueva contraseña en" },
  passwordRecovered: {
    en: "Your password has changed. Every device was signed out: sign in with the new password.",
    es: "Tu contraseña ha cambiado. Se ha cerrado la sesión en todos los dispositivos: accede con la nueva contraseña.",
  },
} as const;

/** Demo accounts (README, "Demo accounts"), each used by one kind of test here. */
const accounts = {
  wrongPassword: "indices-advanced@demo.test",
  unconfirmed: "unconfirmed@demo.test",
  recover: "assets-advanced@demo.test",
  revoked: { email: "all-advanced@demo.test", name: "Complete" },
} as const;

type Tab = Awaited<ReturnType<typeof openServerTab>>;

const where = (tab: Tab) =>
  `${tab.router.state.location.pathname}${tab.router.state.location.search}`;
/** Types into a field once its screen is shown (screens load on demand). */
const type = async (label: string, value: string) =>
  fireEvent.change(await screen.findByLabelText(label, { selector: "input" }), {
    target: { value },
  });
const header = (locale: Locale) =>
  screen.getByRole("navigation", { name: t.mainNavigation[locale] });
const authCookie = () => document.cookie.split("; ").find((c) => c.startsWith("auth="));
const heading = async (text: string) =>
  waitFor(() => expect(screen.getByRole("heading", { level: 1 }).textContent).toBe(text));
const alertSays = async (text: string) =>
  waitFor(() => expect(screen.getByRole("alert").textContent).toBe(text));
const statusSays = async (text: string) =>
  waitFor(() => expect(screen.getByRole("status").textContent).toBe(text));

/** A link of an email opened in a new tab of the same browser: its path and query. */
const pathOf = (link: string) => {
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
};

async function signIn(locale: Locale, email: string, password: string) {
  const form = (await screen.findByLabelText(t.password[locale], { selector: "input" })).closest(
    "form",
  )!;
  fireEvent.change(within(form).getByLabelText(t.email[locale], { selector: "input" }), {
    target: { value: email },
  });
  fireEvent.change(within(form).getByLabelText(t.password[locale], { selector: "input" }), {
    target: { value: password },
  });
  fireEvent.click(within(form).getByRole("button", { name: t.signIn[locale] }));
}

/** Ends the browser's session on the server, as signing out elsewhere would. */
async function revokeSession(server: TabServer, browser: TabBrowser) {
  const token = browser.cookies.get("session");
  expect(token, "the browser's session cookie").toBeTruthy();
  const response = await server.market.app.request("/api/auth/logout", {
    method: "POST",
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(response.status).toBe(200);
}

afterEach(() => {
  cleanup();
  sessionStorage.clear();
  for (const name of ["auth", "lang"])
    document.cookie = `${name}=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT`;
});

describe.each(["ht", "tt"] as const)("account errors (%s)", (edition: Edition) => {
  let server: TabServer;
  beforeAll(async () => {
    server = await openTabServer(edition);
  });
  afterAll(() => server?.close());

  describe.each(["en", "es"] as const)("in %s", (locale: Locale) => {
    it("a wrong password is refused", async () => {
      const tab = await openServerTab(server, paths.signIn[locale]);
      await signIn(locale, accounts.wrongPassword, "Not-the-password-2026");
      await alertSays(t.wrongCredentials[locale]);
      expect(where(tab)).toBe(paths.signIn[locale]);
      expect(within(header(locale)).getByRole("link", { name: t.signIn[locale] })).toBeInstanceOf(
        HTMLAnchorElement,
      );
      expect(authCookie()).toBeUndefined();
      expect(tab.browser.cookies.has("session")).toBe(false);
    });

    it("a confirmation link with a wrong token is refused", async () => {
      const query = new URLSearchParams({ email: "nobody@example.com", token: "not-a-token" });
      await openServerTab(server, `${paths.confirmEmail[locale]}?${query}`);
      await alertSays(t.invalidLink[locale]);
    });

    it("a password-recovery link with a wrong token is refused", async () => {
      // Without a token the screen says so at once.
      await openServerTab(server, paths.recoverPassword[locale]);
      await alertSays(t.invalidLink[locale]);
      cleanup();

      const query = new URLSearchParams({ email: accounts.recover, token: "not-a-token" });
      await openServerTab(server, `${paths.recoverPassword[locale]}?${query}`);
      await type(t.newPassword[locale], "Babbage-Lovelace-1843");
      await type(t.confirmPassword[locale], "Babbage-Lovelace-1843");
      fireEvent.click(screen.getByRole("button", { name: t.saveNewPassword[locale] }));
      await alertSays(t.invalidLink[locale]);
    });

    it("a session ended on the server (401) sends the person to sign in", async () => {
      const { email, name } = accounts.revoked;
      const returnTo = new URLSearchParams({ returnTo: paths.profile[locale] });
      const signInPath = `${paths.signIn[locale]}?${returnTo}`;
      const browser = newBrowser();
      let tab = await openServerTab(server, signInPath, browser);
      const expectSignedOutAtSignIn = async () => {
        await waitFor(() => expect(where(tab)).toBe(signInPath));
        await heading(t.signIn[locale]);
        await waitFor(() =>
          expect(within(header(locale)).getByRole("link", { name: t.signIn[locale] })).toBeTruthy(),
        );
        expect(within(header(locale)).queryByRole("link", { name })).toBeNull();
        expect(authCookie()).toBeUndefined();
      };
      const signInToProfile = async () => {
        await signIn(locale, email, DEMO_PASSWORD);
        await waitFor(() => expect(where(tab)).toBe(paths.profile[locale]), { timeout: 10_000 });
        await heading(t.profile[locale]);
        await waitFor(() =>
          expect(
            within(header(locale)).getByRole("button", { name: t.signOut[locale] }),
          ).toBeTruthy(),
        );
      };
      await signInToProfile();

      // An API call of the page gets 401: saving the profile.
      await revokeSession(server, browser);
      await type(t.city[locale], "Bletchley");
      fireEvent.click(screen.getByRole("button", { name: t.saveDetails[locale] }));
      await expectSignedOutAtSignIn();

      // Signing in again goes back to the profile; a reload after the session ended gets 401 too.
      await signInToProfile();
      await revokeSession(server, browser);
      cleanup();
      tab = await openServerTab(server, paths.profile[locale], browser);
      await expectSignedOutAtSignIn();
    }, 30_000);
  });

  it("a confirmation link works once only (en)", async () => {
    await openServerTab(server, paths.confirmEmail.en);
    await type(t.email.en, accounts.unconfirmed);
    fireEvent.click(screen.getByRole("button", { name: t.sendLinkAgain.en }));
    await statusSays(t.linkOnItsWay.en);
    const link = server.linkInNewestEmail(accounts.unconfirmed, t.confirmSubject.en);
    expect(pathOf(link).startsWith(`${paths.confirmEmail.en}?`), link).toBe(true);
    cleanup();

    await openServerTab(server, pathOf(link));
    await statusSays(t.emailConfirmed.en);
    cleanup();
    await openServerTab(server, pathOf(link));
    await alertSays(t.invalidLink.en);
  });

  it("a password-recovery link works once only (es)", async () => {
    await openServerTab(server, paths.forgotPassword.es);
    await type(t.email.es, accounts.recover);
    fireEvent.click(screen.getByRole("button", { name: t.sendMeTheLink.es }));
    await statusSays(t.recoverLinkOnItsWay.es);
    const link = server.linkInNewestEmail(accounts.recover, t.recoverSubject.es);
    expect(pathOf(link).startsWith(`${paths.recoverPassword.es}?`), link).toBe(true);

    const choose = async () => {
      // The demo password again, so the account stays as the README describes it.
      await type(t.newPassword.es, DEMO_PASSWORD);
      await type(t.confirmPassword.es, DEMO_PASSWORD);
      fireEvent.click(screen.getByRole("button", { name: t.saveNewPassword.es }));
    };
    cleanup();
    await openServerTab(server, pathOf(link));
    await choose();
    await statusSays(t.passwordRecovered.es);
    cleanup();
    await openServerTab(server, pathOf(link));
    await choose();
    await alertSays(t.invalidLink.es);
  });
});
