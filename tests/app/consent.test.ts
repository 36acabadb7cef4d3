// @vitest-environment jsdom
import { setupI18n } from "@lingui/core";
import { afterEach, describe, expect, it, vi } from "vitest";
import { messages as en } from "../../locales/en/messages.po";
import { messages as es } from "../../locales/es/messages.po";
import { prerenderConsentBanners } from "../../scripts/prerender-shell.tsx";
import { resetConsent, startConsent, watchFirstPageBanner } from "../../src/app/consent.ts";
import { editionBrands } from "../../src/ui/editions.ts";

afterEach(() => resetConsent());

const click = (role: string) =>
  (document.querySelector(`#cc-main [data-role="${role}"]`) as HTMLButtonElement).click();

describe("cookie consent", () => {
  it("loads the edition's marketing script only after consent", async () => {
    const loadScript = vi.fn(async () => true);
    const i18n = setupI18n({ locale: "en", messages: { en } });
    await startConsent({
      brand: editionBrands.ht,
      locale: "en",
      i18n,
      marketingScriptUrl: "https://chat.example/x.js",
      loadScript,
    });
    expect(document.querySelector("#cc-main .cm__title")?.textContent).toBe("We use cookies");
    expect(loadScript).not.toHaveBeenCalled();
    click("all");
    expect(loadScript).toHaveBeenCalledExactlyOnceWith("https://chat.example/x.js");
  });

  it("never loads it when the user rejects", async () => {
    const loadScript = vi.fn(async () => true);
    const i18n = setupI18n({ locale: "es", messages: { es } });
    await startConsent({
      brand: editionBrands.tt,
      locale: "es",
      i18n,
      marketingScriptUrl: "https://chat.example/x.js",
      loadScript,
    });
    expect(document.querySelector("#cc-main .cm__title")?.textContent).toBe("Usamos cookies");
    expect(document.querySelector("#cc-main .cm__desc")?.textContent).toContain("TwoTails");
    click("necessary");
    expect(loadScript).not.toHaveBeenCalled();
  });

  it("loads nothing when the edition has no script configured", async () => {
    const loadScript = vi.fn(async () => true);
    const i18n = setupI18n({ locale: "en", messages: { en } });
    await startConsent({
      brand: editionBrands.ht,
      locale: "en",
      i18n,
      marketingScriptUrl: null,
      loadScript,
    });
    click("all");
    expect(loadScript).not.toHaveBeenCalled();
  });

  it("keeps a choice made on the first page's copy of the banner, and never loses one", async () => {
    const copy = (await prerenderConsentBanners(["ht"])).ht!.en!;
    document.body.insertAdjacentHTML("beforeend", copy);
    const buttons = () => [
      ...document.querySelectorAll<HTMLButtonElement>("#cc-main[data-first-page] button"),
    ];
    // Before the app's script can remember a click, the copy's buttons take none.
    expect(buttons().map((b) => b.textContent)).toEqual([
      "Accept all",
      "Reject all",
      "Manage preferences",
    ]);
    expect(buttons().every((b) => b.disabled)).toBe(true);
    watchFirstPageBanner();
    expect(buttons().every((b) => !b.disabled)).toBe(true);
    click("all");

    const loadScript = vi.fn(async () => true);
    const i18n = setupI18n({ locale: "en", messages: { en } });
    await startConsent({
      brand: editionBrands.ht,
      locale: "en",
      i18n,
      marketingScriptUrl: "https://chat.example/x.js",
      loadScript,
    });
    // The library's banner replaced the copy and received the choice made on it.
    expect(document.querySelector("#cc-main[data-first-page]")).toBeNull();
    expect(loadScript).toHaveBeenCalledExactlyOnceWith("https://chat.example/x.js");
  });
});
