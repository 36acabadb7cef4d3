// @vitest-environment jsdom
// The one panel of long work (what-if, optimisation, simulator): what runs said once by a polite
// status region, a named progress bar, the seconds so far outside the live region, and Cancel.
import { I18nProvider } from "@lingui/react";
import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { activateLocale, i18n } from "../../src/app/i18n.ts";
import type { Locale } from "../../src/contract/common.ts";
import { ProgressPanel } from "../../src/ui/progress-panel.tsx";

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setInterval", "clearInterval", "Date"] });
  vi.setSystemTime(new Date("2026-11-27T10:00:00Z"));
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

async function panel(locale: Locale, props: { startedAt?: number; onCancel?: () => void } = {}) {
  await activateLocale(locale);
  render(
    <I18nProvider i18n={i18n}>
      <ProgressPanel
        label="Simulating"
        locale={locale}
        onCancel={props.onCancel ?? (() => {})}
        {...(props.startedAt !== undefined ? { startedAt: props.startedAt } : {})}
      >
        Simulating 10,000 paths…
      </ProgressPanel>
    </I18nProvider>,
  );
}

describe("the progress panel", () => {
  it("says what runs once, and counts the seconds outside the live region", async () => {
    await panel("en");
    const status = screen.getByRole("status");
    expect(status.getAttribute("aria-live")).toBe("polite");
    expect(status.textContent).toBe("Simulating 10,000 paths…");
    expect(screen.getByRole("progressbar", { name: "Simulating" })).toBeTruthy();
    const elapsed = screen.getByTestId("elapsed");
    expect(elapsed.getAttribute("aria-hidden")).toBe("true");
    expect(within(status).queryByTestId("elapsed")).toBeNull();
    expect(elapsed.textContent).toBe("0 s");
    act(() => vi.advanceTimersByTime(3_000));
    expect(elapsed.textContent).toBe("3 s");
  });

  it("counts from when the work started, when it started before the panel", async () => {
    await panel("es", { startedAt: Date.now() - 1_234_000 });
    expect(screen.getByTestId("elapsed").textContent).toBe("1234 s");
    act(() => vi.advanceTimersByTime(1_000));
    expect(screen.getByTestId("elapsed").textContent).toBe("1235 s");
  });

  it("stops the work with Cancel, in the person's language", async () => {
    const onCancel = vi.fn();
    await panel("es", { onCancel });
    fireEvent.click(screen.getByRole("button", { name: "Cancelar" }));
    expect(onCancel).toHaveBeenCalledOnce();
  });
});
