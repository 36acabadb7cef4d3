import type { Locale } from "../contract/common.ts";
import type { Redirect } from "../../machines/guards/route-guards.ts";
import { pathFor } from "./paths.ts";

/** Where a failed guard sends the user, keeping the requested path when the rule says so. */
export function redirectHref(redirect: Redirect, locale: Locale, requested: string): string {
  if (redirect.followReturnTo) {
    const back = safeReturnPath(new URLSearchParams(requested.split("?")[1] ?? "").get("returnTo"));
    if (back) return back;
  }
  const query = new URLSearchParams();
  if (redirect.keepPath) query.set("returnTo", requested);
  if (redirect.product) query.set("stc", redirect.product);
  const search = query.toString();
  return pathFor(redirect.to, locale) + (search ? `?${search}` : "");
}

/** A `returnTo` value is followed only when it is a path of this site (no open redirects). */
export function safeReturnPath(value: string | null): string | null {
  if (!value || !value.startsWith("/") || value.startsWith("//") || value.includes("\\"))
    return null;
  return value;
}
