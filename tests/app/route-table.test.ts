import { describe, expect, it } from "vitest";
import { defineRoute, routeTable } from "../../src/app/route-table.ts";
import { msg } from "@lingui/core/macro";

/** Section 2 of the specification, copied by hand: path (en), path (es), guards, layout. */
const specification: readonly [string, string, readonly string[], string][] = [
  ["/en", "/es", [], "default"],
  ["/en/_health", "/es/_health", [], "default"],
  [
    "/en/accept-privacy-policy",
    "/es/aceptar-politica-privacidad",
    ["forbidden-ht", "auth-registered"],
    "empty-center",
  ],
  ["/en/confirm-email", "/es/confirmar-email", ["forbidden-tt"], "default"],
  ["/en/forgot-password", "/es/olvide-contrasena", [], "default"],
  ["/en/recover-password", "/es/recuperar-contrasena", [], "default"],
  ["/en/sign-in", "/es/acceso-de-usuario", ["auth-guest"], "default"],
  ["/en/sign-up", "/es/registro-de-usuario", ["auth-guest", "forbidden-tt"], "default"],
  ["/en/choose-your-plan", "/es/elige-tu-plan", ["choose-plan-page", "forbidden-tt"], "default"],
  [
    "/en/my-account/billing-subscription",
    "/es/mi-cuenta/facturacion-suscripcion",
    ["auth-registered", "forbidden-tt"],
    "default-client-account",
  ],
  [
    "/en/my-account/banana-portfolios/portfolio-{id}",
    "/es/mi-cuenta/carteras-banana/cartera-{id}",
    ["auth-registered", "monkey-permission"],
    "default",
  ],
  [
    "/en/my-account/banana-challenge",
    "/es/mi-cuenta/banana-challenge",
    ["auth-registered", "monkey-permission"],
    "default",
  ],
  ["/en/my-account/portfolios", "/es/mi-cuenta/carteras", ["auth-registered"], "default"],
  [
    "/en/my-account/portfolios/portfolio-{id}",
    "/es/mi-cuenta/carteras/cartera-{id}",
    ["auth-registered", "subscribed"],
    "default",
  ],
  ["/en/my-account/profile", "/es/mi-cuenta/perfil", ["auth-registered"], "default"],
  ["/en/investment-simulator", "/es/simulador-de-inversion", ["auth-registered"], "default"],
  ["/en/markets", "/es/mercados", [], "default"],
  [
    "/en/banana-challenge",
    "/es/banana-challenge",
    ["auth-registered", "monkey-permission", "forbidden-trial"],
    "default",
  ],
  [
    "/en/create-portfolio/q1",
    "/es/crear-cartera/p1",
    ["auth-registered", "forbidden-trial"],
    "default",
  ],
  [
    "/en/create-portfolio/q2",
    "/es/crear-cartera/p2",
    ["auth-registered", "portfolio-creation"],
    "default",
  ],
  [
    "/en/create-portfolio/q3",
    "/es/crear-cartera/p3",
    ["auth-registered", "portfolio-creation"],
    "default",
  ],
  [
    "/en/create-portfolio/summary",
    "/es/crear-cartera/resumen",
    ["auth-registered", "portfolio-creation"],
    "default",
  ],
  [
    "/en/analysis/full-analysis",
    "/es/analisis/analisis-completo",
    ["auth-registered", "portfolio-creation", "subscribed"],
    "default",
  ],
  [
    "/en/assess-risk/assessment",
    "/es/medir-riesgo/valoracion",
    ["auth-registered", "portfolio-created"],
    "default",
  ],
  ["/en/what-if/scenarios", "/es/que-pasaria-si/escenarios", ["portfolio-created"], "default"],
  ["/en/what-if/assessment", "/es/que-pasaria/valoracion", ["subscribed"], "default"],
  [
    "/en/analysis/optimized-portfolio-full-analysis",
    "/es/analisis/analisis-completo-cartera-optimizada",
    ["auth-registered", "portfolio-creation", "subscribed"],
    "default",
  ],
  [
    "/en/optimize/choose",
    "/es/optimizar/seleccionar",
    ["auth-registered", "portfolio-creation", "subscribed"],
    "default",
  ],
  [
    "/en/optimize/o1",
    "/es/optimizar/o1",
    ["auth-registered", "portfolio-creation", "subscribed"],
    "default",
  ],
  [
    "/en/optimize/o2",
    "/es/optimizar/o2",
    ["auth-registered", "portfolio-creation", "subscribed"],
    "default",
  ],
  [
    "/en/optimize/o3",
    "/es/optimizar/o3",
    ["auth-registered", "portfolio-creation", "subscribed"],
    "default",
  ],
  [
    "/en/optimize/summary",
    "/es/optimizar/resumen",
    ["auth-registered", "portfolio-creation", "subscribed"],
    "default",
  ],
  [
    "/en/subscribe/confirm",
    "/es/suscribete/confirmar",
    ["auth-registered", "forbidden-tt"],
    "default",
  ],
  ["/en/payment-complete", "/es/pago-realizado", ["forbidden-tt"], "default"],
];

describe("route table", () => {
  const rows = routeTable.map((r) => [
    `/en${r.paths.en}`,
    `/es${r.paths.es}`,
    [...r.guards].sort(),
    r.layout,
  ]);

  it("has exactly the routes of the specification, with their paths, guards and layouts", () => {
    const expected = specification.map(([en, es, guards, layout]) => [
      en,
      es,
      [...guards].sort(),
      layout,
    ]);
    expect(rows).toHaveLength(expected.length);
    for (const row of expected) expect(rows).toContainEqual(row);
  });

  it("gives every route a unique id and unique paths in each language", () => {
    expect(new Set(routeTable.map((r) => r.id)).size).toBe(routeTable.length);
    expect(new Set(routeTable.map((r) => r.paths.en)).size).toBe(routeTable.length);
    expect(new Set(routeTable.map((r) => r.paths.es)).size).toBe(routeTable.length);
  });

  it("names the routes the specification names (sign-in, accept-policy, index)", () => {
    const ids = routeTable.map((r) => r.id);
    expect(ids).toEqual(expect.arrayContaining(["auth-SignIn", "auth-acceptPolicy", "index"]));
  });

  it("refuses a guard name the specification does not define", () => {
    expect(() =>
      defineRoute("x", "/x", "/x", ["auth-registered", "logged-in"], msg`X`, msg`X`),
    ).toThrow('Unknown route guard "logged-in"');
  });
});
