import { readFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { brandNames, expect, locales, saveShot, test, texts, type Locale } from "./fixtures.ts";

const words = {
  app: { en: "App", es: "Aplicación" },
  api: { en: "API", es: "API" },
  database: { en: "Database", es: "Base de datos" },
  working: { en: "Working", es: "Funciona" },
  embedded: { en: "embedded (PGlite)", es: "integrada (PGlite)" },
  answeredIn: { en: "Answered in", es: "Respondió en" },
  migrations: { en: "migrations?", es: "migraci(ón|ones)" },
  checkAgain: { en: "Check again", es: "Comprobar de nuevo" },
} as const;

/** The build the server serves (written by `vite build`; E2E_DIST_DIR as playwright.config.ts). */
const buildId = (
  JSON.parse(
    readFileSync(
      path.resolve(
        import.meta.dirname,
        "../..",
        process.env.E2E_DIST_DIR || "dist",
        "builds/latest.json",
      ),
      "utf8",
    ),
  ) as { build: string }
).build;

const rowOf = (page: Page, name: string) =>
  page.getByRole("row").filter({ has: page.getByRole("rowheader", { name, exact: true }) });

test.describe("system status", () => {
  for (const locale of locales) {
    test(`/${locale}/_health shows every component working, in ${locale}`, async ({
      page,
      edition,
    }) => {
      await page.goto(`/${locale}/_health`);
      const w = (key: keyof typeof words) => words[key][locale as Locale];
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(texts.systemStatus[locale]);
      await expect(page).toHaveTitle(`${texts.systemStatus[locale]} · ${brandNames[edition]}`);

      const app = rowOf(page, w("app"));
      const api = rowOf(page, w("api"));
      const database = rowOf(page, w("database"));
      for (const row of [app, api, database]) {
        await expect(row).toHaveCount(1);
        await expect(row.getByRole("cell").first()).toHaveText(w("working"));
      }
      await expect(app).toContainText(`${brandNames[edition]} (${edition})`);
      await expect(app).toContainText(buildId);
      await expect(api).toContainText(w("answeredIn"));
      await expect(database).toContainText(w("embedded"));
      await expect(database).toContainText(new RegExp(`\\d+ ${w("migrations")}`));
      await expect(page.getByRole("button", { name: w("checkAgain") })).toBeVisible();
      await saveShot(page, `${edition}-health-${locale}`);
    });
  }

  test("the API reports the edition and a working database", async ({ request, edition }) => {
    const response = await request.get("/api/health");
    expect(response.status()).toBe(200);
    const body = (await response.json()) as {
      status: string;
      edition: string;
      database: { status: string; driver: string };
    };
    expect(body).toMatchObject({
      status: "ok",
      edition,
      database: { status: "up", driver: "pglite" },
    });
  });
});
