// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { renderApp, testServices } from "../support/render-app.tsx";

type Call = { url: string; method: string; body: unknown };

/** A fake API: login answers 400 INVALID_CREDENTIALS; everything else 404. Records every call. */
function fakeApi() {
  const calls: Call[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(String(input), init);
    const text = await request.clone().text();
    const call = { url: request.url, method: request.method, body: text ? JSON.parse(text) : null };
    calls.push(call);
    const json = (status: number, body: unknown) =>
      new Response(JSON.stringify(body), {
        status,
        headers: { "Content-Type": "application/json" },
      });
    if (new URL(request.url).pathname === "/api/auth/login")
      return json(400, { msgCode: "INVALID_CREDENTIALS" });
    return json(404, { msgCode: "NOT_FOUND" });
  });
  return { fetch: fetch as unknown as typeof globalThis.fetch, calls };
}

const type = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });

beforeEach(() => {
  // The proof-of-work widget of the sign-up form fetches its challenge with the global fetch.
  vi.stubGlobal(
    "fetch",
    vi.fn(async () => new Response("{}", { status: 503 })),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  document.cookie = "lang=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT";
  document.cookie = "auth=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT";
});

describe("sign-in screen", () => {
  it.each([
    {
      path: "/en/sign-in",
      email: "Email",
      password: "Password",
      submit: "Sign in",
      message: "The email or the password is not correct.",
    },
    {
      path: "/es/acceso-de-usuario",
      email: "Email",
      password: "Contraseña",
      submit: "Acceder",
      message: "El email o la contraseña no son correctos.",
    },
  ])("shows the text of a failed sign-in's msgCode at $path", async (c) => {
    const api = fakeApi();
    await renderApp(c.path, { services: testServices("ht", api.fetch) });
    const form = (await screen.findByLabelText(c.password)).closest("form")!;

    type(c.email, "ada@example.test");
    type(c.password, "Wrong-password-1");
    fireEvent.click(within(form).getByRole("button", { name: c.submit }));

    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toBe(c.message);
    const login = api.calls.filter((x) => x.url.includes("/api/auth/login"));
    expect(login).toHaveLength(1);
    expect(login[0]).toMatchObject({
      method: "POST",
      body: { email: "ada@example.test", password: "Wrong-password-1" },
    });
  });
});

describe("sign-up screen", () => {
  const cases = [
    {
      path: "/en/sign-up",
      labels: {
        name: "Name",
        surname: "Surname",
        email: "Email",
        password: "Password",
        confirm: "Confirm the password",
        policies: "I have read and accept the privacy policy",
      },
      submit: "Create my account",
      mismatch: "Passwords don't match.",
      strength: { empty: "Enter a password", weak: "Weak", medium: "Medium", strong: "Strong" },
    },
    {
      path: "/es/registro-de-usuario",
      labels: {
        name: "Nombre",
        surname: "Apellidos",
        email: "Email",
        password: "Contraseña",
        confirm: "Confirma la contraseña",
        policies: "He leído y acepto la política de privacidad",
      },
      submit: "Crear mi cuenta",
      mismatch: "Las contraseñas no coinciden.",
      strength: {
        empty: "Escribe una contraseña",
        weak: "Débil",
        medium: "Media",
        strong: "Fuerte",
      },
    },
  ];

  it.each(cases)("shows the mismatch message at $path and does not call register", async (c) => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const api = fakeApi();
    await renderApp(c.path, { services: testServices("ht", api.fetch) });
    await screen.findByLabelText(c.labels.confirm);

    type(c.labels.name, "Ada");
    type(c.labels.surname, "Lovelace");
    type(c.labels.email, "ada@example.test");
    type(c.labels.password, "Correct-Horse-42");
    type(c.labels.confirm, "Correct-Horse-43");
    fireEvent.click(screen.getByLabelText(c.labels.policies));
    fireEvent.click(screen.getByRole("button", { name: c.submit }));

    // The form's alert and the confirmation field both carry the message.
    await waitFor(() => expect(screen.getAllByText(c.mismatch)).toHaveLength(2));
    const alerts = screen.getAllByRole("alert").map((a) => a.textContent);
    expect(alerts).toContain(c.mismatch);
    expect(log).toHaveBeenCalledWith("Passwords don't match");
    const everyCall = [
      ...api.calls.map((x) => x.url),
      ...vi.mocked(globalThis.fetch).mock.calls.map(([u]) => String(u)),
    ];
    expect(everyCall.filter((u) => u.includes("/auth/register"))).toEqual([]);
  });

  it.each(cases)("shows the password strength as the user types at $path", async (c) => {
    await renderApp(c.path, { services: testServices("ht", fakeApi().fetch) });
    const password = await screen.findByLabelText(c.labels.password);
    const hint = () => document.getElementById(password.getAttribute("aria-describedby")!)!;

    expect(hint().textContent).toBe(c.strength.empty);
    for (const [value, label] of [
      ["abc", c.strength.weak],
      ["abcdefgh", c.strength.weak],
      ["abcdefg1", c.strength.medium],
      ["Correct-Horse-42", c.strength.strong],
      ["", c.strength.empty],
    ] as const) {
      fireEvent.change(password, { target: { value } });
      expect(hint().textContent).toBe(label);
    }
  });
});
