import { describe, expect, it } from "vitest";
import { localeOfPath, matchPath, pathFor, switchLocalePath } from "../../src/app/paths.ts";
import { redirectHref, safeReturnPath } from "../../src/app/redirect.ts";
import { routeTable } from "../../src/app/route-table.ts";

describe("paths", () => {
  it("matches every route in both languages and builds the same path back", () => {
    for (const route of routeTable) {
      for (const locale of ["en", "es"] as const) {
        const path = pathFor(route.id, locale, { id: "42" });
        const match = matchPath(path);
        expect(match?.route.id, path).toBe(route.id);
        expect(match?.locale).toBe(locale);
      }
    }
  });

  it("accepts a positive integer portfolio id and nothing else (404 otherwise)", () => {
    expect(matchPath("/en/my-account/portfolios/portfolio-12")?.params).toEqual({ id: "12" });
    expect(matchPath("/es/mi-cuenta/carteras-banana/cartera-7")?.route.id).toBe(
      "account-banana-portfolio",
    );
    for (const bad of [
      "portfolio-0",
      "portfolio-abc",
      "portfolio-01",
      "portfolio-",
      "portfolio-1.5",
      "cartera-3",
    ]) {
      expect(matchPath(`/en/my-account/portfolios/${bad}`), bad).toBeNull();
    }
  });

  it("accepts a trailing slash and rejects unknown paths and languages", () => {
    expect(matchPath("/en/markets/")?.route.id).toBe("markets");
    expect(matchPath("/en/mercados")).toBeNull();
    expect(matchPath("/fr/markets")).toBeNull();
    expect(localeOfPath("/es/x")).toBe("es");
    expect(localeOfPath("/fr/x")).toBeNull();
  });

  it("switches language on the same screen, keeping parameters, query and hash", () => {
    expect(
      switchLocalePath("/en/my-account/portfolios/portfolio-9", "?tab=risk", "#var", "es"),
    ).toBe("/es/mi-cuenta/carteras/cartera-9?tab=risk#var");
    expect(switchLocalePath("/es/que-pasaria/valoracion", "", "", "en")).toBe(
      "/en/what-if/assessment",
    );
    expect(switchLocalePath("/es/no-existe", "", "", "en")).toBe("/en");
  });

  it("refuses to build a path without its parameter", () => {
    expect(() => pathFor("account-portfolio", "en")).toThrow(/needs a valid "id"/);
    expect(() => pathFor("account-portfolio", "en", { id: "x" })).toThrow();
  });

  it("keeps the requested path on redirects that return, and only follows local return paths", () => {
    expect(
      redirectHref({ to: "auth-SignIn", keepPath: true }, "es", "/es/mi-cuenta/carteras"),
    ).toBe("/es/acceso-de-usuario?returnTo=%2Fes%2Fmi-cuenta%2Fcarteras");
    expect(
      redirectHref(
        { to: "choose-your-plan", keepPath: true, product: "simMonk" },
        "en",
        "/en/banana-challenge",
      ),
    ).toBe("/en/choose-your-plan?returnTo=%2Fen%2Fbanana-challenge&stc=simMonk");
    expect(redirectHref({ to: "index", keepPath: false }, "en", "/en/sign-up")).toBe("/en");
    expect(safeReturnPath("/en/markets")).toBe("/en/markets");
    for (const bad of ["//evil.example", "https://evil.example", "/\\evil", null, ""])
      expect(safeReturnPath(bad)).toBeNull();
  });
});
