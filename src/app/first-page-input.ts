/**
 * What a visitor types into the prerendered first page before the app takes over is kept.
 *
 * The public screens arrive prerendered (docs/performance.md) and the app renders its own markup
 * over them (createRoot, no hydration), which would drop anything typed meanwhile. From the moment
 * this runs, the prerendered fields' values and the focused field are followed; once the app has
 * committed, they are given to its fields (the same screen, so the same fields in the same order),
 * through the events React listens to, and the focus goes back where it was. A field the app has
 * already filled itself (a draft) is left alone.
 *
 * The prerendered forms cannot submit on their own meanwhile (`inertFirstPage` below, applied to the
 * markup by scripts/prerender-shell.tsx, makes their buttons plain, disabled buttons and drops the
 * fields' names), so Enter before the app is there never sends a password in the page's address.
 */
type Control = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

// eslint-disable-next-line lingui/no-unlocalized-strings -- a CSS selector, not a text
const FIELDS = "input:not([type=hidden]), textarea, select";

interface Kept {
  readonly kind: string;
  readonly value: string | boolean;
}

const kindOf = (c: Control) => `${c.tagName}:${c instanceof HTMLInputElement ? c.type : ""}`;
const checkable = (c: Control): c is HTMLInputElement =>
  c instanceof HTMLInputElement && (c.type === "checkbox" || c.type === "radio");

/** The field's value as typed, or null when it is as the markup had it. */
function typedValue(c: Control): string | boolean | null {
  if (checkable(c)) return c.checked === c.defaultChecked ? null : c.checked;
  if (c instanceof HTMLSelectElement) {
    const initial = [...c.options].find((o) => o.defaultSelected)?.value ?? c.options[0]?.value;
    return c.value === initial ? null : c.value;
  }
  return c.value === c.defaultValue ? null : c.value;
}

/** Whether the app's field already holds something of its own (a draft): then it stays. */
function filledByTheApp(c: Control): boolean {
  // React keeps a controlled field's `value` attribute equal to its value: an empty text field is
  // the test for text; checkboxes and lists compare with their markup's default.
  if (checkable(c) || c instanceof HTMLSelectElement) return typedValue(c) !== null;
  return c.value !== "";
}

/** Sets a field as a person would: React's own listeners see the change. */
function give(c: Control, value: string | boolean) {
  if (checkable(c)) {
    if (c.checked !== value) c.click();
    return;
  }
  const setter = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(c) as object, "value")?.set;
  setter?.call(c, value as string);
  c.dispatchEvent(
    new Event(c instanceof HTMLSelectElement ? "change" : "input", { bubbles: true }),
  );
}

/**
 * Starts following the prerendered fields of `root`; the function returned, called once the app
 * has committed its first screen, hands what was typed to the app's fields and stops.
 */
export function keepFirstPageInput(root: HTMLElement | null): () => void {
  if (!root?.querySelector(FIELDS)) return () => undefined;
  const fields = () => [...root.querySelectorAll<Control>(FIELDS)];
  const kept = new Map<number, Kept>();
  let focused: number | null = null;

  const record = (target: EventTarget | null) => {
    const all = fields();
    const index = all.indexOf(target as Control);
    if (index < 0) return;
    const c = all[index]!;
    const value = typedValue(c);
    if (value === null) kept.delete(index);
    else kept.set(index, { kind: kindOf(c), value });
  };
  // Typed before this script ran (a slow network): read once, then followed.
  fields().forEach((c) => record(c));
  const active = document.activeElement;
  if (active && root.contains(active)) focused = fields().indexOf(active as Control);

  const onInput = (e: Event) => record(e.target);
  const onFocus = (e: Event) => {
    const index = fields().indexOf(e.target as Control);
    focused = index < 0 ? null : index;
  };
  const prerendered = [...root.children];
  root.addEventListener("input", onInput, true);
  root.addEventListener("change", onInput, true);
  root.addEventListener("focusin", onFocus, true);

  let handedOver = false;
  return () => {
    if (handedOver) return;
    handedOver = true;
    root.removeEventListener("input", onInput, true);
    root.removeEventListener("change", onInput, true);
    root.removeEventListener("focusin", onFocus, true);
    // Still the prerendered markup (the app rendered nothing of its own): nothing to hand over.
    if (prerendered.length > 0 && prerendered.every((el) => root.contains(el))) return;
    const now = fields();
    for (const [index, { kind, value }] of kept) {
      const c = now[index];
      if (!c || kindOf(c) !== kind || filledByTheApp(c)) continue;
      give(c, value);
    }
    const target = focused === null ? undefined : now[focused];
    const elsewhere = document.activeElement && document.activeElement !== document.body;
    if (target && !elsewhere) {
      target.focus();
      if (target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement) {
        // The caret at the end of what was typed (selection is not offered by every input type).
        const end = target.value.length;
        try {
          target.setSelectionRange(end, end);
        } catch {
          // email and number fields have no selection API
        }
      }
    }
  };
}

/**
 * The prerendered markup does nothing until the app takes over, and says so:
 * - its buttons arrive `disabled`, so a click (on the menu, a form's button, "Cookie settings")
 *   is not taken and lost: the button tells a person and a screen reader it is not ready yet, and
 *   the app's own buttons, rendered over the markup, take the click;
 * - its forms cannot submit natively (a GET to the page, with the password in the address): their
 *   submit buttons are plain buttons and their fields have no name, so Enter does nothing either.
 * What is typed meanwhile is handed to the app's fields (`keepFirstPageInput`). Used by
 * scripts/prerender-shell.tsx.
 */
/* eslint-disable lingui/no-unlocalized-strings -- markup, not texts */
export function inertFirstPage(html: string): string {
  return html
    .replace(/<button\b[^>]*>/g, (tag) => {
      const typed = /\stype="/.test(tag)
        ? tag.replace(/\stype="submit"/, ' type="button"')
        : tag.replace("<button", '<button type="button"');
      return /\sdisabled(?:=|\s|>)/.test(typed) ? typed : typed.replace(/>$/, ' disabled="">');
    })
    .replace(/(<(?:input|select|textarea)\b[^>]*?)\sname="[^"]*"/g, "$1");
}
/* eslint-enable lingui/no-unlocalized-strings */
