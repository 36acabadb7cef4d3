// @vitest-environment jsdom
// What is typed into the prerendered first page before the app takes over is handed to the app's
// fields (src/app/first-page-input.ts), and the prerendered forms cannot submit on their own.
import { act, cleanup } from "@testing-library/react";
import { useState } from "react";
import { createRoot, type Root } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { afterEach, describe, expect, it } from "vitest";
import { inertFirstPage, keepFirstPageInput } from "../../src/app/first-page-input.ts";

/** A sign-in form as the app renders it: controlled fields, the values in React's state. */
function SignIn({
  seen,
}: {
  seen?: (v: { email: string; password: string; remember: boolean }) => void;
}) {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [remember, setRemember] = useState(false);
  seen?.({ email, password, remember });
  return (
    <form>
      <label>
        Email
        <input type="email" name="email" value={email} onChange={(e) => setEmail(e.target.value)} />
      </label>
      <label>
        Password
        <input
          type="password"
          name="password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
      </label>
      <label>
        Remember me
        <input type="checkbox" checked={remember} onChange={(e) => setRemember(e.target.checked)} />
      </label>
      <button type="submit">Sign in</button>
    </form>
  );
}

/** Types as a person does: the value changes and an input event is sent. */
function type(field: HTMLInputElement, value: string) {
  field.value = value;
  field.dispatchEvent(new Event("input", { bubbles: true }));
}

let mounted: Root | null = null;
afterEach(() => {
  act(() => mounted?.unmount());
  mounted = null;
  document.body.innerHTML = "";
  cleanup();
});

function prerendered() {
  const root = document.createElement("div");
  root.id = "root";
  root.innerHTML = inertFirstPage(renderToString(<SignIn />));
  document.body.append(root);
  return root;
}

describe("the prerendered first page", () => {
  it("hands what was typed, and the focus, to the app's fields", () => {
    const root = prerendered();
    const [email, password, remember] = root.querySelectorAll("input");
    type(email!, "early@example.test"); // typed before the script ran: read at start
    const handOver = keepFirstPageInput(root);
    password!.focus();
    type(password!, "typed-before-the-app");
    remember!.click();

    let state = { email: "", password: "", remember: false };
    act(() => {
      mounted = createRoot(root);
      mounted.render(<SignIn seen={(v) => (state = v)} />);
    });
    expect(state).toEqual({ email: "", password: "", remember: false });
    act(() => handOver());
    expect(state).toEqual({
      email: "early@example.test",
      password: "typed-before-the-app",
      remember: true,
    });
    const fields = root.querySelectorAll("input");
    expect(document.activeElement).toBe(fields[1]);
    expect(fields[0]!.value).toBe("early@example.test");
  });

  it("leaves a field the app filled itself, and does nothing while the markup is still its own", () => {
    const root = prerendered();
    const handOver = keepFirstPageInput(root);
    type(root.querySelector("input")!, "typed@example.test");
    // Called before the app rendered anything: the prerendered field keeps its text, unchanged.
    handOver();
    expect(root.querySelector("input")!.value).toBe("typed@example.test");

    const again = prerendered();
    const later = keepFirstPageInput(again);
    type(again.querySelector("input")!, "typed@example.test");
    let state = { email: "", password: "", remember: false };
    function Drafted() {
      const [email, setEmail] = useState("draft@example.test");
      state = { email, password: "", remember: false };
      return <input type="email" value={email} onChange={(e) => setEmail(e.target.value)} />;
    }
    act(() => {
      mounted = createRoot(again);
      mounted.render(<Drafted />);
    });
    act(() => later());
    expect(state.email).toBe("draft@example.test");
  });

  it("cannot submit natively, and its buttons take no click: disabled, no submit button, no field names", () => {
    const html = inertFirstPage(
      renderToString(
        <form>
          <input name="email" />
          <select name="region">
            <option>eu</option>
          </select>
          <textarea name="note" />
          <button type="submit">Send</button>
          <button>Untyped</button>
          <button type="button">Plain</button>
          <button type="button" disabled>
            Already disabled
          </button>
        </form>,
      ),
    );
    expect(html).not.toMatch(/\sname="/);
    expect(html).not.toMatch(/type="submit"/);
    expect(html.match(/<button type="button"/g)).toHaveLength(4);
    expect(html.match(/<button [^>]*\sdisabled=""[^>]*>/g)).toHaveLength(4);
    const form = document.createElement("form");
    form.innerHTML = html.replace(/^<form>|<\/form>$/g, "");
    document.body.append(form);
    let submitted = 0;
    form.addEventListener("submit", (e) => {
      submitted += 1;
      e.preventDefault();
    });
    let clicked = 0;
    form.addEventListener("click", () => (clicked += 1));
    for (const b of form.querySelectorAll("button")) {
      expect(b.disabled).toBe(true);
      b.click();
    }
    expect(clicked).toBe(0);
    expect(submitted).toBe(0);
  });
});
