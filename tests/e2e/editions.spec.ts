import { brandNames, expect, primaryColours, test, texts } from "./fixtures.ts";

test.describe("editions", () => {
  test("the page wears the edition's brand and colour", async ({ page, edition }) => {
    await page.goto("/en");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(texts.homeHeading.en);
    await expect(page).toHaveTitle(`Home · ${brandNames[edition]}`);
    await expect(page.locator("html")).toHaveAttribute("data-edition", edition);
    await expect(page.getByRole("link", { name: `${brandNames[edition]} home` })).toBeVisible();
    await expect(page.getByRole("contentinfo")).toContainText(brandNames[edition]);

    // The hero's primary action: the portfolio in ht, the education programme in tt (its main entry).
    const primary = page.getByRole("link", {
      name: edition === "tt" ? "Start the programme" : "Create your portfolio",
    });
    await expect(primary).toHaveCSS("background-color", primaryColours[edition]);
    await expect(primary).toHaveCSS("color", "rgb(255, 255, 255)");
    await expect(page.getByRole("link", { name: "Sign up", exact: true })).toHaveCSS(
      "background-color",
      primaryColours[edition],
    );
  });

  test("the Spanish page names the brand untranslated", async ({ page, edition }) => {
    await page.goto("/es");
    await expect(page).toHaveTitle(`Inicio · ${brandNames[edition]}`);
    await expect(
      page.getByRole("link", { name: `Inicio de ${brandNames[edition]}` }),
    ).toBeVisible();
    await expect(
      page.getByRole("link", {
        name: edition === "tt" ? "Empieza el programa" : "Crea tu cartera",
      }),
    ).toHaveCSS("background-color", primaryColours[edition]);
  });

  test("/api/config returns the edition", async ({ request, edition }) => {
    const response = await request.get("/api/config");
    expect(response.status()).toBe(200);
    expect(await response.json()).toMatchObject({ edition, apiBase: "/api" });
  });
});
