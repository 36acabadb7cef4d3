// @vitest-environment jsdom
// The alert every screen shows when its data could not be loaded: the reason in the user's
// language, announced as an alert, and a button that tries again.
import { I18nProvider } from "@lingui/react";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { activateLocale, i18n } from "../../src/app/i18n.ts";
import type { Locale } from "../../src/contract/common.ts";
import { LoadFailed } from "../../src/ui/load-failed.tsx";

afterEach(cleanup);

describe("LoadFailed", () => {
  it.each([
    ["en", "The service is not available right now. Please try again in a moment.", "Try again"],
    [
      "es",
      "El servicio no está disponible ahora mismo. Inténtalo de nuevo en un momento.",
      "Volver a intentarlo",
    ],
  ] as const)(
    "says why in %s and tries again on request",
    async (locale: Locale, reason, retry) => {
      await activateLocale(locale);
      const onRetry = vi.fn();
      render(
        <I18nProvider i18n={i18n}>
          <LoadFailed error="DATABASE_UNAVAILABLE" onRetry={onRetry} />
        </I18nProvider>,
      );
      const alert = screen.getByRole("alert");
      expect(alert.textContent).toBe(`${reason} ${retry}`);
      expect(onRetry).not.toHaveBeenCalled();
      fireEvent.click(screen.getByRole("button", { name: retry }));
      expect(onRetry).toHaveBeenCalledOnce();
    },
  );

  it("offers the retry without a reason when there is none", async () => {
    await activateLocale("en");
    render(
      <I18nProvider i18n={i18n}>
        <LoadFailed error={null} onRetry={() => {}} />
      </I18nProvider>,
    );
    expect(screen.getByRole("alert").textContent).toBe(" Try again");
  });
});
