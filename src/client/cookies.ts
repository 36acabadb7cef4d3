/** Cookie names the app uses (the specification names the locale, auth and selected-plan cookies). */
export const cookieNames = {
  locale: "lang",
  auth: "auth",
  selectedPlan: "selected-plan",
  policyReturnPath: "policy-return-path",
} as const;

export const LOCALE_COOKIE_DAYS = 365;

export function readCookie(name: string, source: string = document.cookie): string | null {
  for (const part of source.split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) return decodeURIComponent(rest.join("="));
  }
  return null;
}

export interface CookieOptions {
  readonly expires?: Date;
  readonly days?: number;
}

export function writeCookie(name: string, value: string, options: CookieOptions = {}): void {
  const expires =
    options.expires ?? (options.days ? new Date(Date.now() + options.days * 86_400_000) : null);
  const secure = location.protocol === "https:" ? "; Secure" : "";
  document.cookie =
    `${name}=${encodeURIComponent(value)}; Path=/; SameSite=Lax${secure}` +
    (expires ? `; Expires=${expires.toUTCString()}` : "");
}

export function removeCookie(name: string): void {
  document.cookie = `${name}=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT`;
}
