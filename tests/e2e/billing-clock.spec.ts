// The sandbox's test clock in a browser (issue 28, docs/billing.md "The sandbox's test clock"), in
// both languages on the ht edition: a renewal charged at the period end (the billing screen's new
// date, a second invoice, a second receipt), and a failed renewal through its retries on days 1,
// 3 and 7, each with its email, to the end of the plan. The server runs with
// SANDBOX_TEST_CLOCK=true (playwright.config.ts); the clock is moved through its API call.
import type { APIRequestContext, Page } from "@playwright/test";
import { dismissCookieBannerWhenShown } from "./accounts-support.ts";
import {
  apiAs,
  atPath,
  bearerOf,
  billingPaths as paths,
  billingTexts as t,
  money,
  payOnSandbox,
  signUpNewPerson,
} from "./billing-support.ts";
import { expect, test, type Locale } from "./fixtures.ts";

const STANDARD_MONTHLY = 990;
/** The sandbox card that pays now and is declined at renewals. */
const DECLINES_RENEWALS = "4000 0000 0000 0341";

const words = {
  renewsOn: { en: "Renews on", es: "Se renueva el" },
  retry: {
    en: "The renewal payment failed",
    es: "El pago de la renovación ha fallado",
  },
  paymentDue: { en: "Payment due", es: "Pago pendiente" },
  free: { en: "Free", es: "Gratuito" },
  receipt: { en: "Your hollytools receipt", es: "Recibo de hollytools" },
  failed: {
    en: "We could not charge your hollytools plan",
    es: "No hemos podido cobrar tu plan de hollytools",
  },
  lastAttempt: { en: "last attempt", es: "último intento" },
};

interface Email {
  to: string;
  subject: string;
  text: string;
}

async function emailsTo(request: APIRequestContext, to: string): Promise<Email[]> {
  const response = await request.get("/api/dev/outbox");
  expect(response.ok()).toBe(true);
  return ((await response.json()) as Email[]).filter((e) => e.to === to);
}

/** Moves the signed-in account's billing clock forward (the sandbox's test clock). */
async function moveClock(page: Page, token: string, days: number) {
  const response = await page.request.post("/api/billing/test-clock", {
    headers: { Authorization: `Bearer ${token}` },
    data: { days },
  });
  expect(response.ok(), await response.text()).toBe(true);
}

/** Buys hollytools standard monthly through the confirm screen and the sandbox's page. */
async function buyStandardMonthly(page: Page, locale: Locale, card: string) {
  const query = new URLSearchParams({
    product: "simAssets",
    tier: "standard",
    period: "monthly",
    currency: "EUR",
  });
  await page.goto(`${paths.confirm[locale]}?${query}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(t.confirmTitle[locale]);
  const price = money(STANDARD_MONTHLY, locale);
  await expect(page.getByTestId("charge-now")).toHaveText(price);
  await page.getByLabel(t.nameOnInvoice[locale], { exact: true }).fill("Mary Somerville");
  await page.getByLabel(t.country[locale], { exact: true }).selectOption("ES");
  await page
    .getByRole("button", { name: `${t.pay[locale]} ${price} ${t.andContinue[locale]}` })
    .click();
  await payOnSandbox(page, locale, card, price);
  await expect(page).toHaveURL(atPath(paths.paymentComplete[locale]));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(t.paymentComplete[locale]);
}

for (const locale of ["en", "es"] as const) {
  test.describe(`billing through time with the test clock (${locale})`, () => {
    test.skip(({ edition }) => edition !== "ht", "plans are sold on the ht edition");

    test("renews at the period end: a new date, a second invoice and a receipt", async ({
      page,
      edition,
    }) => {
      test.slow();
      await dismissCookieBannerWhenShown(page);
      const email = await signUpNewPerson(
        page,
        locale,
        edition,
        "Mary",
        "Mechanism-of-Heavens-1831",
      );
      const token = await bearerOf(page.context());
      const api = apiAs(page.request, token);
      await buyStandardMonthly(page, locale, "4242 4242 4242 4242");
      const bought = await api.product("simAssets");
      const end = Date.parse(bought.next!.date);

      await moveClock(page, token, (end - Date.now()) / 86_400_000 + 0.01);
      const renewed = await api.product("simAssets");
      expect(renewed.state).toBe("active");
      expect(Date.parse(renewed.next!.date)).toBeGreaterThan(Date.now());
      const billing = await api.billing();
      expect(billing.invoices.map((i) => i.totalCents)).toEqual([
        STANDARD_MONTHLY,
        STANDARD_MONTHLY,
      ]);

      await page.goto(paths.billing[locale]);
      await expect(page.getByTestId("next-simAssets")).toContainText(words.renewsOn[locale]);
      await expect(
        page.getByRole("list", { name: t.invoices[locale] }).getByRole("listitem"),
      ).toHaveCount(2);
      await expect
        .poll(async () =>
          (await emailsTo(page.request, email)).filter((e) =>
            e.subject.startsWith(words.receipt[locale]),
          ),
        )
        .toHaveLength(2);
    });

    test("retries a failed renewal on days 1, 3 and 7 with an email each, then ends the plan", async ({
      page,
      edition,
    }) => {
      test.slow();
      await dismissCookieBannerWhenShown(page);
      const email = await signUpNewPerson(page, locale, edition, "Ada", "Analytical-Engine-1843");
      const token = await bearerOf(page.context());
      const api = apiAs(page.request, token);
      await buyStandardMonthly(page, locale, DECLINES_RENEWALS);
      const end = Date.parse((await api.product("simAssets")).next!.date);

      const steps = [
        { days: (end - Date.now()) / 86_400_000 + 0.01, state: "pastDue", failures: 1 },
        { days: 1, state: "pastDue", failures: 2 },
        { days: 2, state: "pastDue", failures: 3 },
        { days: 4, state: "free", failures: 4 },
      ];
      for (const step of steps) {
        await moveClock(page, token, step.days);
        expect((await api.product("simAssets")).state).toBe(step.state);
        const failed = (await emailsTo(page.request, email)).filter((e) =>
          e.subject.startsWith(words.failed[locale]),
        );
        expect(failed).toHaveLength(step.failures);
        await page.goto(paths.billing[locale]);
        const card = page.locator('[data-product="simAssets"]');
        if (step.state === "pastDue") {
          await expect(card.getByText(words.paymentDue[locale], { exact: true })).toBeVisible();
          await expect(page.getByTestId("next-simAssets")).toContainText(words.retry[locale]);
        } else {
          await expect(card.getByText(words.free[locale], { exact: true })).toBeVisible();
          // The outbox lists the newest first: the fourth failure's email says it was the last.
          expect(failed[0]!.text).toContain(words.lastAttempt[locale]);
        }
      }
      expect((await api.client()).permissions.simAssets!.analysis.var).toBe(false);
    });
  });
}
