import { solveChallenge, type Challenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";
import type {
  APIRequestContext,
  APIResponse,
  Browser,
  BrowserContext,
  Cookie,
  Page,
} from "@playwright/test";
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

/**
 * Signs the browser context in through the API, as the sign-in screen's own call does: the server
 * answers with its HttpOnly session cookie (kept by the context, which shares its cookies with
 * `context.request`), and the app's `auth` cookie (the session's expiry, nothing secret) is set as
 * the app sets it. No page is loaded. The context needs a baseURL (the fixtures' has one). The
 * sign-in screen itself is walked by accounts-journey.spec.ts and accounts-guards.spec.ts.
 */
async function loginByApi(context: BrowserContext, email: string) {
  const answer = await context.request.post("/api/auth/login", {
    data: { email, password: DEMO_PASSWORD },
  });
  expect(answer.ok(), `sign-in as ${email}: ${await answer.text()}`).toBe(true);
  return keepSession(context, answer);
}

/** After an answer that started a session: the app's `auth` cookie, as the app writes it. */
async function keepSession(context: BrowserContext, answer: APIResponse) {
  const { token, expiry } = (await answer.json()) as { token: string; expiry: string };
  const origin = new URL(answer.url()).origin;
  await context.addCookies([
    {
      name: "auth",
      value: encodeURIComponent(JSON.stringify({ expiry })),
      url: origin,
      expires: Math.floor(new Date(expiry).getTime() / 1000),
      sameSite: "Lax",
    },
  ]);
  return { token, origin };
}

/**
 * Signs a new person up through the API, as the sign-up screen does (the proof of work solved
 * here, with the library the server checks it with), confirms the email with the link the outbox
 * holds and keeps the session the confirmation starts; the banner is answered. For tests of what
 * a new person does next; accounts-journey.spec.ts walks the sign-up screens.
 */
export async function signUpByApi(
  page: Page,
  form: { name: string; email: string; password: string; locale: Locale; subject: string },
): Promise<string> {
  const context = page.context();
  const challenged = await context.request.get("/api/auth/captcha/pow");
  expect(challenged.ok(), await challenged.text()).toBe(true);
  const challenge = (await challenged.json()) as Challenge;
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error("the sign-up's proof of work could not be solved");
  const registered = await context.request.post("/api/auth/register", {
    data: {
      name: form.name,
      surname: "Somerville",
      email: form.email,
      password: form.password,
      confirmPassword: form.password,
      countryId: "ES",
      newsletter: false,
      policies: true,
      language: form.locale,
      recaptchaToken: Buffer.from(JSON.stringify({ challenge, solution })).toString("base64"),
    },
  });
  expect(registered.status(), await registered.text()).toBe(201);
  const link = new URL(await linkInNewestEmail(context.request, form.email, form.subject));
  const confirmed = await context.request.put("/api/auth/confirm-email", {
    data: { email: link.searchParams.get("email"), token: link.searchParams.get("token") },
  });
  expect(confirmed.ok(), await confirmed.text()).toBe(true);
  const { token, origin } = await keepSession(context, confirmed);
  await answerConsent(context, origin);
  return token;
}

/** The consent cookie the banner leaves once rejected, per server: harvested once per worker. */
const consentCookies = new Map<string, Promise<Cookie>>();

function consentCookieOf(browser: Browser, origin: string): Promise<Cookie> {
  let cookie = consentCookies.get(origin);
  if (!cookie) {
    cookie = (async () => {
      const context = await browser.newContext({ baseURL: origin });
      try {
        const page = await context.newPage();
        await page.goto("/en/_health");
        await page
          .getByRole("dialog", { name: cookieBannerName })
          .getByRole("button", { name: rejectCookies })
          .click();
        let found: Cookie | undefined;
        await expect
          .poll(async () => {
            found = (await context.cookies()).find((c) => c.name.endsWith("_consent"));
            return found !== undefined;
          })
          .toBe(true);
        return found!;
      } finally {
        await context.close();
      }
    })();
    consentCookies.set(origin, cookie);
  }
  return cookie;
}

/**
 * The cookie banner answered (rejected) in the context before its first page: the cookie the banner
 * itself wrote in another context, reused. For tests of other screens; consent.spec.ts walks the
 * banner.
 */
export async function answerConsent(context: BrowserContext, origin: string): Promise<void> {
  const browser = context.browser();
  if (!browser) throw new Error("a context without a browser");
  await context.addCookies([await consentCookieOf(browser, origin)]);
}

/**
 * The page's context ready for a test of another screen: the banner answered and signed in through
 * the API. Returns the session's token (for calls with a bearer header).
 */
export async function signInAs(page: Page, email: string): Promise<string> {
  const { token, origin } = await loginByApi(page.context(), email);
  await answerConsent(page.context(), origin);
  return token;
}

/** A new context made ready the same way (a guest without an email). */
export async function readyContext(
  browser: Browser,
  baseURL: string,
  email: string | null,
): Promise<{ context: BrowserContext; token: string | null }> {
  const context = await browser.newContext({ baseURL, locale: "en-US" });
  await answerConsent(context, baseURL);
  const token = email ? (await loginByApi(context, email)).token : null;
  return { context, token };
}
