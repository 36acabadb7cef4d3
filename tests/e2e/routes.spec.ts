import { brandNames, expect, test } from "./fixtures.ts";

/**
 * Every route of src/app/route-table.ts a guest may open (no guards, or guards a signed-out
 * visitor passes: auth-guest, forbidden-tt, choose-plan-page), with its title in English and in
 * Spanish (locales/es/messages.po).
 */
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

test.describe("public routes", () => {
  for (const { path, title } of publicRoutes) {
    test(`${path} shows "${title}"`, async ({ page, edition }) => {
      await page.goto(path);
      await expect(page).toHaveURL(new RegExp(`${path}$`));
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
      await expect(page).toHaveTitle(`${title} · ${brandNames[edition]}`);
      await expect(page.locator("html")).toHaveAttribute("lang", path.slice(1, 3));
    });
  }

  test("a trailing slash is accepted", async ({ page }) => {
    await page.goto("/es/mercados/");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Mercados");
  });
});
