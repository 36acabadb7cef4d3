// @vitest-environment jsdom
// Each validation message of the creation wizard is shown at its own field, not at the top of the
// page: below the input, named by the input's aria-describedby, the input marked aria-invalid and
// given the focus on submit. Money amounts show the language's format with exactly two decimals
// once the person leaves the field (issue: "5,533.99", "1,250" and "3,879.2" side by side).
import { I18nProvider } from "@lingui/react";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { activateLocale, i18n } from "../../src/app/i18n.ts";
import type { Locale } from "../../src/contract/common.ts";
import { HoldingsEditor } from "../../src/features/portfolios/holdings-editor.tsx";
import type * as TabApp from "../support/tab-app.tsx";
import { openTab, signIn } from "../support/tab-app.tsx";

const texts = {
  en: {
    q1: "/en/create-portfolio/q1",
    q2: "/en/create-portfolio/q2",
    q3: "/en/create-portfolio/q3",
    amount: "Amount to invest",
    next: "Next",
    tooLow: "The total invested is below the minimum investment.",
    tooHigh: "The total invested is above the maximum investment.",
    lossLabel: "Loss you could bear, in EUR",
    notPositive: "Enter an amount above zero, or leave it empty if you prefer not to say.",
    typed: "1250",
    shown: "1,250.00",
    build: "Build my portfolio",
    priority: "Your priority",
    balanced: /^Balanced/,
    orderingNotAllowed: "That priority is not included in your plan. Choose another one.",
    assets: "Number of assets",
    levelNotOffered: "Your plan does not allow that many assets. Choose fewer.",
    levelShown: "Up to 50 assets (not in your plan)",
  },
  es: {
    q1: "/es/crear-cartera/p1",
    q2: "/es/crear-cartera/p2",
    q3: "/es/crear-cartera/p3",
    amount: "Importe a invertir",
    next: "Siguiente",
    tooLow: "El total invertido está por debajo de la inversión mínima.",
    tooHigh: "El total invertido supera la inversión máxima.",
    lossLabel: "Pérdida que podrías soportar, en EUR",
    notPositive: "Introduce un importe mayor que cero, o déjalo vacío si prefieres no decirlo.",
    typed: "1250",
    shown: "1.250,00",
    build: "Construir mi cartera",
    priority: "Tu prioridad",
    balanced: /^Equilibrada/,
    orderingNotAllowed: "Esa prioridad no está incluida en tu plan. Elige otra.",
    assets: "Número de activos",
    levelNotOffered: "Tu plan no permite tantos activos. Elige menos.",
    levelShown: "Hasta 50 activos (tu plan no lo incluye)",
  },
} as const;

/** The texts that describe an input (its aria-describedby), each element's text. */
function describedBy(input: HTMLElement): HTMLElement[] {
  const ids = (input.getAttribute("aria-describedby") ?? "").split(/\s+/).filter(Boolean);
  return ids.map((id) => document.getElementById(id)).filter((e): e is HTMLElement => e !== null);
}

/** The message is at the field: describing it, below it in the same field, not an alert on top. */
function expectErrorAtField(input: HTMLElement, text: string) {
  expect(input.getAttribute("aria-invalid")).toBe("true");
  const error = describedBy(input).find((e) => e.textContent === text);
  expect(error, `"${text}" in the field's aria-describedby`).toBeDefined();
  expect(error!.closest(".field")).toBe(input.closest(".field"));
  // Below the input, in document order.
  expect(input.compareDocumentPosition(error!) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  expectNotOnTop(text);
  expect(document.activeElement).toBe(input);
}

/** Not (also) a message at the top of the form: no alert says it, and it is said once, at the field. */
function expectNotOnTop(text: string) {
  expect(screen.queryAllByRole("alert").filter((a) => a.textContent?.includes(text))).toEqual([]);
  expect(screen.getAllByText(text)).toHaveLength(1);
  expect(screen.getByText(text).closest(".form-message")).toBeNull();
}

/** The draft of the wizard in this tab, changed as an older tab (or another plan) left it. */
function changeDraftAnswers(answers: Record<string, unknown>) {
  const stored = JSON.parse(sessionStorage.getItem("draft:wizard")!) as {
    data: { context: { answers: Record<string, unknown> } };
  };
  Object.assign(stored.data.context.answers, answers);
  sessionStorage.setItem("draft:wizard", JSON.stringify(stored));
}

/** The tab reloaded at a path: every module of the app loaded again, the same sessionStorage. */
async function reloadAt(path: string) {
  cleanup();
  vi.resetModules();
  const tab: typeof TabApp = await import("../support/tab-app.tsx");
  return tab.openTab(path);
}

/** q1 and q2 answered in the screens: the tab is at q3. */
async function answerUpToQ3(x: (typeof texts)[keyof typeof texts]) {
  const opened = await openTab(x.q1);
  fireEvent.change(await screen.findByLabelText(x.amount, {}, { timeout: 5000 }), {
    target: { value: "10000" },
  });
  fireEvent.click(screen.getByRole("button", { name: x.next }));
  await waitFor(() => expect(opened.router.state.location.pathname).toBe(x.q2));
  await screen.findByLabelText(x.lossLabel, {}, { timeout: 5000 });
  fireEvent.click(screen.getByRole("button", { name: x.next }));
  await waitFor(() => expect(opened.router.state.location.pathname).toBe(x.q3));
  await screen.findByRole("button", { name: x.build }, { timeout: 5000 });
}

beforeEach(() => {
  sessionStorage.clear();
  signIn();
});
afterEach(() => {
  cleanup();
  sessionStorage.clear();
});

describe.each(["en", "es"] as const)("the wizard's fields in %s", (locale) => {
  const x = texts[locale];

  it("shows q1's amount error at the amount field, which gets the focus", async () => {
    await openTab(x.q1);
    const amount = await screen.findByLabelText(x.amount, {}, { timeout: 5000 });
    expect(amount.getAttribute("aria-invalid")).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: x.next }));
    await waitFor(() => expect(amount.getAttribute("aria-invalid")).toBe("true"));
    expectErrorAtField(amount, x.tooLow);
    // The hint stays described too.
    expect(describedBy(amount).some((e) => e.classList.contains("field-hint"))).toBe(true);

    fireEvent.change(amount, { target: { value: "9000000" } });
    fireEvent.click(screen.getByRole("button", { name: x.next }));
    await waitFor(() => expectErrorAtField(amount, x.tooHigh));
  });

  it("shows q2's error at the loss field", async () => {
    const opened = await openTab(x.q1);
    fireEvent.change(await screen.findByLabelText(x.amount, {}, { timeout: 5000 }), {
      target: { value: "10000" },
    });
    fireEvent.click(screen.getByRole("button", { name: x.next }));
    await waitFor(() => expect(opened.router.state.location.pathname).toBe(x.q2));
    const loss = await screen.findByLabelText(x.lossLabel, {}, { timeout: 5000 });
    fireEvent.change(loss, { target: { value: "0" } });
    fireEvent.click(screen.getByRole("button", { name: x.next }));
    await waitFor(() => expectErrorAtField(loss, x.notPositive));
  });

  it("shows q3's priority error in the priority group, which gets the focus", async () => {
    await answerUpToQ3(x);
    // A priority the plan does not include (a draft from before a plan change): the choice is
    // disabled, but the answer is still the draft's.
    changeDraftAnswers({ ordering: "minimization" });
    const reloaded = await reloadAt(x.q3);
    fireEvent.click(await screen.findByRole("button", { name: x.build }, { timeout: 5000 }));
    const group = await screen.findByRole("group", { name: x.priority });
    await waitFor(() => expect(group.getAttribute("aria-describedby")).toBeTruthy());
    const error = document.getElementById(group.getAttribute("aria-describedby")!)!;
    expect(error.textContent).toBe(x.orderingNotAllowed);
    // Inside the group, after its choices.
    expect(group.contains(error)).toBe(true);
    const choices = screen.getAllByRole("radio");
    expect(
      choices.at(-1)!.compareDocumentPosition(error) & Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();
    expectNotOnTop(x.orderingNotAllowed);
    // The focus is on the first priority the plan allows.
    expect(document.activeElement).toBe(screen.getByRole("radio", { name: x.balanced }));
    expect(reloaded.router.state.location.pathname).toBe(x.q3);
    // Choosing one clears it.
    fireEvent.click(screen.getByRole("radio", { name: x.balanced }));
    await waitFor(() => expect(group.getAttribute("aria-describedby")).toBeNull());
  });

  it("shows q3's number of assets error at its field, which gets the focus", async () => {
    await answerUpToQ3(x);
    // 50 assets: more than the plan's 5.
    changeDraftAnswers({ maxAssetsLevel: 4 });
    await reloadAt(x.q3);
    fireEvent.click(await screen.findByRole("button", { name: x.build }, { timeout: 5000 }));
    const level = screen.getByRole("combobox", { name: x.assets }) as HTMLSelectElement;
    await waitFor(() => expectErrorAtField(level, x.levelNotOffered));
    // The select shows the answer the message is about, not the first choice in its place.
    expect(level.selectedOptions[0]?.textContent).toBe(x.levelShown);
    expect(describedBy(level).some((e) => e.classList.contains("field-hint"))).toBe(true);
  });

  it("shows a money amount with two decimals once the person leaves it", async () => {
    await openTab(x.q1);
    const amount = (await screen.findByLabelText(
      x.amount,
      {},
      {
        timeout: 5000,
      },
    )) as HTMLInputElement;
    amount.focus();
    fireEvent.change(amount, { target: { value: x.typed } });
    // While typing, the text is kept as typed.
    expect(amount.value).toBe(x.typed);
    fireEvent.blur(amount);
    expect(amount.value).toBe(x.shown);
  });
});

describe("the holdings' amounts in the summary", () => {
  async function editor(locale: Locale) {
    await activateLocale(locale);
    render(
      <I18nProvider i18n={i18n}>
        <HoldingsEditor
          assets={[
            { id: "SAN.MC", name: "Banco Santander", investedAmount: 5533.99 },
            { id: "ITX.MC", name: "Inditex", investedAmount: 1250 },
            { id: "BBVA.MC", name: "BBVA", investedAmount: 3879.2 },
          ]}
          currency="EUR"
          locale={locale}
          send={() => {}}
          candidates={[]}
        />
      </I18nProvider>,
    );
    return screen
      .getAllByRole("textbox")
      .map((box) => (box as HTMLInputElement).value)
      .slice(0, 3);
  }

  it("all show two decimals in English", async () => {
    expect(await editor("en")).toEqual(["5,533.99", "1,250.00", "3,879.20"]);
  });

  it("all show two decimals in Spanish", async () => {
    expect(await editor("es")).toEqual(["5.533,99", "1.250,00", "3.879,20"]);
  });
});
