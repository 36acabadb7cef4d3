// @vitest-environment jsdom
// One plan lock for every locked block (issue 26): the tier it names is the lowest that grants the
// permission in the one permissions table, in the person's language, with a link to that plan.
import { I18nProvider } from "@lingui/react";
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { MemoryRouter } from "react-router-dom";
import { activateLocale, i18n } from "../../src/app/i18n.ts";
import { PlanLock } from "../../src/app/plan-lock.tsx";
import type { Locale, Product } from "../../src/contract/common.ts";
import { unlockingTier, type PermissionPath } from "../../src/contract/permissions.ts";

afterEach(async () => {
  cleanup();
  await activateLocale("en");
});

async function lock(locale: Locale, product: Product, permission: PermissionPath) {
  await activateLocale(locale);
  render(
    <I18nProvider i18n={i18n}>
      <MemoryRouter>
        <PlanLock product={product} permission={permission} locale={locale} />
      </MemoryRouter>
    </I18nProvider>,
  );
  return screen.getByTestId("plan-lock");
}

describe("the plan lock", () => {
  it("names the lowest tier that grants a permission, from the permissions table", () => {
    expect(unlockingTier("simAssets", "analysis.var")).toBe("standard");
    expect(unlockingTier("simMonk", "competition.communityRanking")).toBe("standard");
    expect(unlockingTier("simAssets", "optimization.constructionFixAssets")).toBe("advanced");
  });

  it.each([
    ["en", "Included in the Advanced plan.", "See the Advanced plan", "/en/choose-your-plan"],
    ["es", "Incluido en el plan Avanzado.", "Ver el plan Avanzado", "/es/elige-tu-plan"],
  ] as const)(
    "says which plan unlocks it and links to it (%s)",
    async (locale, text, link, path) => {
      const el = await lock(locale, "simAssets", "optimization.constructionFixAssets");
      expect(el.dataset.tier).toBe("advanced");
      expect(el.textContent).toContain(text);
      expect(screen.getByRole("link", { name: link }).getAttribute("href")).toBe(
        `${path}?product=simAssets&tier=advanced`,
      );
    },
  );

  it("is the same lock for the banana challenge and the videos", async () => {
    const banana = await lock("en", "simMonk", "competition.communityRanking");
    expect(banana.dataset.tier).toBe(unlockingTier("simMonk", "competition.communityRanking"));
    cleanup();
    const videos = await lock("es", "simAssets", "hollypedia.videoTutorials");
    expect(videos.dataset.tier).toBe(unlockingTier("simAssets", "hollypedia.videoTutorials"));
  });
});
