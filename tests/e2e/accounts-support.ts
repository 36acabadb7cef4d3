import type { APIRequestContext, BrowserContext, Page } from "@playwright/test";
import { appMounted, expect, type Locale } from "./fixtures.ts";

/** Paths of the account screens used by the accounts end-to-end tests. */
export const accountPaths = {
  home: { en: "/en", es: "/es" },
  signUp: { en: "/en/sign-up", es: "/es/registro-de-usuario" },
  signIn: { en: "/en/sign-in", es: "/es/acceso-de-usuario" },
  confirmEmail: { en: "/en/confirm-email", es: "/es/confirmar-email" },
  profile: { en: "/en/my-account/profile", es: "/es/mi-cuenta/perfil" },
  myPortfolios: { en: "/en/my-account/portfolios", es: "/es/mi-cuenta/carteras" },
  forgotPassword: { en: "/en/forgot-password", es: "/es/olvide-contrasena" },
  recoverPassword: { en: "/en/recover-password", es: "/es/recuperar-contrasena" },
  acceptPolicy: { en: "/en/accept-privacy-policy", es: "/es/aceptar-politica-privacidad" },
  markets: { en: "/en/markets", es: "/es/mercados" },
} as const satisfies Record<string, Record<Locale, string>>;

/** Texts of the account screens: English from the screens, Spanish from locales/es/messages.po. */
export const accountTexts = {
  name: { en: "Name", es: "Nombre" },
  surname: { en: "Surname", es: "Apellidos" },
  email: { en: "Email", es: "Email" },
  password: { en: "Password", es: "Contraseña" },
  confirmPassword: { en: "Confirm the password", es: "Confirma la contraseña" },
  acceptPolicy: {
    en: "I have read and accept the privacy policy",
    es: "He leído y acepto la política de privacidad",
  },
  verified: { en: "Verified", es: "Verificado" },
  createMyAccount: { en: "Create my account", es: "Crear mi cuenta" },
  checkYourEmail: { en: "Check your email", es: "Revisa tu email" },
  confirmSubject: { en: "Confirm your email for", es: "Confirma tu email en" },
  emailConfirmed: {
    en: "Your email is confirmed. Welcome!",
    es: "Tu email está confirmado. ¡Te damos la bienvenida!",
  },
  yourProfile: { en: "Your profile, ", es: "Tu perfil, " },
  signOut: { en: "Sign out", es: "Cerrar sesión" },
  profile: { en: "Profile", es: "Perfil" },
  city: { en: "City", es: "Ciudad" },
  newsletter: { en: "Send me the newsletter", es: "Envíame la newsletter" },
  saveDetails: { en: "Save my details", es: "Guardar mis datos" },
  profileSaved: { en: "Your profile is saved.", es: "Tu perfil se ha guardado." },
  currentPassword: { en: "Current password", es: "Contraseña actual" },
  newPassword: { en: "New password", es: "Nueva contraseña" },
  changePassword: { en: "Change my password", es: "Cambiar mi contraseña" },
  passwordChanged: {
    en: "Your password has changed; your other devices were signed out.",
    es: "Tu contraseña ha cambiado; se ha cerrado la sesión en tus otros dispositivos.",
  },
  wrongCredentials: {
    en: "The email or the password is not correct.",
    es: "El email o la contraseña no son correctos.",
  },
  myPortfolios: { en: "My portfolios", es: "Mis carteras" },
  weak: { en: "Weak", es: "Débil" },
  strong: { en: "Strong", es: "Fuerte" },
  tooWeak: {
    en: "Choose a stronger password: at least 8 characters mixing letters, numbers or symbols.",
    es: "Elige una contraseña más segura: al menos 8 caracteres que combinen letras, números o símbolos.",
  },
  passwordsDontMatch: { en: "Passwords don't match.", es: "Las contraseñas no coinciden." },
  invalidLink: {
    en: "This link is not valid any more. Ask for a new one.",
    es: "Este enlace ya no es válido. Pide uno nuevo.",
  },
  sendLinkAgain: { en: "Send the link again", es: "Enviar el enlace de nuevo" },
  linkOnItsWay: {
    en: "If that email has an account waiting for confirmation, a new link is on its way.",
    es: "Si ese email tiene una cuenta pendiente de confirmar, le llegará un enlace nuevo.",
  },
  sendMeTheLink: { en: "Send me the link", es: "Envíame el enlace" },
  recoverLinkOnItsWay: {
    en: "If an account uses that email, a link to choose a new password is on its way. It expires in 1 hour.",
    es: "Si alguna cuenta usa ese email, le llegará un enlace para elegir una nueva contraseña. Caduca en 1 hora.",
  },
  recoverSubject: { en: "Choose a new password for", es: "Elige una nueva contraseña en" },
  saveNewPassword: { en: "Save the new password", es: "Guardar la nueva contraseña" },
  passwordRecovered: {
    en: "Your password has changed. Every device was signed out: sign in with the new password.",
    es: "Tu contraseña ha cambiado. Se ha cerrado la sesión en todos los dispositivos: accede con la nueva contraseña.",
  },
  acceptPolicyTitle: { en: "Accept the privacy policy", es: "Acepta la política de privacidad" },
  policyChanged: {
    en: "Our privacy policy (version 2026-01) has changed since you last accepted it.",
    es: "Nuestra política de privacidad (versión 2026-01) ha cambiado desde que la aceptaste.",
  },
  iAccept: { en: "I accept the privacy policy", es: "Acepto la política de privacidad" },
} as const satisfies Record<string, Record<Locale, string>>;

/** The cookie banner sits over the bottom of the page: reject it whenever it is in the way. */
const cookieBannerName = /^(We use cookies|Usamos cookies)$/;
const rejectCookies = /^(Reject all|Rechazar todo)$/;

export async function dismissCookieBannerWhenShown(page: Page) {
  await page.addLocatorHandler(page.getByRole("dialog", { name: cookieBannerName }), (banner) =>
    banner.getByRole("button", { name: rejectCookies }).click(),
  );
}

/** The link of the newest email to `to` whose subject starts with `subject` (GET /api/dev/outbox). */
export async function linkInNewestEmail(
  request: APIRequestContext,
  to: string,
  subject: string,
): Promise<string> {
  let text = "";
  await expect
    .poll(async () => {
      const response = await request.get("/api/dev/outbox");
      expect(response.ok()).toBe(true);
      const emails = (await response.json()) as { to: string; subject: string; text: string }[];
      text = emails.find((e) => e.to === to && e.subject.startsWith(subject))?.text ?? "";
      return text;
    })
    .not.toBe("");
  const link = /https?:\/\/\S+/.exec(text)?.[0];
  expect(link, `a link in: ${text}`).toBeTruthy();
  return link!;
}

/** The password of every demo account (src/server/accounts/seed.ts). */
export const DEMO_PASSWORD = "Demo-portfolio-2026";

/**
 * Signs in through the sign-in screen and waits until the screen is left. When the server refuses
 * (an alert appears instead), the test fails with the alert's text rather than with a bare URL.
 */
export async function signInThroughScreen(
  page: Page,
  locale: Locale,
  email: string,
  password: string = DEMO_PASSWORD,
) {
  const signInPath = accountPaths.signIn[locale];
  await page.goto(signInPath);
  // The first page is prerendered: what is typed before the app replaces it would be lost.
  await appMounted(page);
  await page.getByLabel(accountTexts.email[locale], { exact: true }).fill(email);
  await page.getByLabel(accountTexts.password[locale], { exact: true }).fill(password);
  await page
    .getByRole("main")
    .getByRole("button", { name: locale === "es" ? "Acceder" : "Sign in", exact: true })
    .click();
  const refusal = page.getByRole("main").getByRole("alert");
  const left = page.waitForURL((url) => url.pathname !== signInPath, { timeout: 15_000 });
  const refused = refusal.waitFor({ timeout: 15_000 }).then(async () => {
    throw new Error(`sign-in as ${email} was refused: ${await refusal.innerText()}`);
  });
  refused.catch(() => undefined);
  await Promise.race([left, refused]);
}

/** The server's session cookie (HttpOnly: the page cannot read it, Playwright can). */
export async function sessionCookieOf(context: BrowserContext) {
  return (await context.cookies()).find((c) => c.name === "session");
}

/** The session's token, for calls with a bearer header: the value of the server's session cookie. */
export async function bearerOf(context: BrowserContext): Promise<string> {
  const cookie = await sessionCookieOf(context);
  if (!cookie?.value) throw new Error("no session cookie: is the browser signed in?");
  return cookie.value;
}

/**
 * Follows an in-app link to a route: the portfolio being worked on lives in the page, so the
 * address changes without a reload (as a link of the app does).
 */
export async function goInApp(page: Page, path: string) {
  await page.evaluate((to) => {
    window.history.pushState(null, "", to);
    window.dispatchEvent(new PopStateEvent("popstate", { state: null }));
  }, path);
  await expect(page).toHaveURL(new RegExp(`${path}$`));
}
