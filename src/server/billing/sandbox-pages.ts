/**
 * The sandbox provider's hosted pages: the checkout (card form) and the authentication step. They
 * stand where a real provider's pages would, outside the app: plain server-rendered HTML, in the
 * payer's language, that work without JavaScript.
 */
import { Hono } from "hono";
import type { Locale } from "../../contract/common.ts";
import type { SandboxCheckout, SandboxProvider } from "./sandbox.ts";
import { testCards } from "./sandbox.ts";
import { money, sandboxTexts } from "./texts.ts";

const escape = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]!,
  );

const styles = `
  :root { color-scheme: light; font-family: system-ui, sans-serif; }
  body { margin: 0; background: #eef1f6; color: #1c2333; }
  main { max-width: 26rem; margin: 2rem auto; background: #fff; padding: 1.5rem; border-radius: 12px;
    box-shadow: 0 2px 12px rgb(0 0 0 / 0.08); }
  h1 { font-size: 1.35rem; margin: 0 0 .25rem; }
  .notice { background: #fff6d6; border: 1px solid #e0c050; padding: .5rem .75rem; border-radius: 8px; font-size: .9rem; }
  .amount { font-size: 1.6rem; font-weight: 700; margin: 1rem 0 .25rem; }
  label { display: block; font-weight: 600; margin-top: .9rem; }
  input { width: 100%; box-sizing: border-box; font-size: 1rem; padding: .6rem; border: 1px solid #7a8599; border-radius: 6px; margin-top: .25rem; }
  .row { display: flex; gap: .75rem; }
  .row > div { flex: 1; display: flex; flex-direction: column; justify-content: flex-end; }
  input, button { font-family: inherit; }
  button { font-size: 1rem; padding: .7rem 1rem; border-radius: 8px; border: 0; cursor: pointer; margin-top: 1rem; }
  .primary { background: #1f4fd1; color: #fff; width: 100%; }
  .secondary { background: #e3e7ef; color: #1c2333; }
  .danger { background: #b3261e; color: #fff; }
  .error { color: #a3160e; font-weight: 600; }
  table { width: 100%; border-collapse: collapse; font-size: .85rem; margin-top: .5rem; }
  td { padding: .25rem .75rem .25rem 0; vertical-align: top; } code { font-size: .85rem; white-space: nowrap; }
  :focus-visible { outline: 3px solid #1f4fd1; outline-offset: 2px; }
`;

function page(locale: Locale, title: string, body: string): string {
  return `<!doctype html><html lang="${locale}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">
<title>${escape(title)}</title><style>${styles}</style></head><body><main>${body}</main></body></html>`;
}

function checkoutPage(
  c: SandboxCheckout,
  error: string | null,
  values: { number?: string; expiry?: string },
) {
  const T = sandboxTexts[c.language];
  const amount = money(c.language, c.amountCents, c.currency);
  const cards = Object.entries(testCards)
    .map(
      ([number, behaviour]) =>
        `<tr><td><code>${number.replace(/(\d{4})(?=\d)/g, "$1 ")}</code></td><td>${escape(T.cards[behaviour])}</td></tr>`,
    )
    .join("");
  return page(
    c.language,
    T.title,
    `<h1>${escape(T.title)}</h1>
<p class="notice">${escape(T.notice)}</p>
<p>${escape(c.description)}</p>
<p class="amount">${escape(amount)}</p>
${error ? `<p class="error" role="alert" id="card-error">${escape(error)}</p>` : ""}
<form method="post" action="/sandbox/checkout/${escape(c.id)}">
  <label for="number">${escape(T.cardNumber)}</label>
  <input id="number" name="number" inputmode="numeric" autocomplete="cc-number" required
    value="${escape(values.number ?? "")}" ${error ? 'aria-describedby="card-error"' : ""}>
  <div class="row">
    <div><label for="expiry">${escape(T.expiry)}</label>
    <input id="expiry" name="expiry" autocomplete="cc-exp" placeholder="12/30" required value="${escape(values.expiry ?? "")}"></div>
    <div><label for="cvc">${escape(T.cvc)}</label>
    <input id="cvc" name="cvc" inputmode="numeric" autocomplete="cc-csc" placeholder="123" required></div>
  </div>
  <button class="primary" type="submit">${escape(T.pay(amount))}</button>
</form>
<form method="post" action="/sandbox/checkout/${escape(c.id)}/cancel">
  <button class="secondary" type="submit">${escape(T.cancel)}</button>
</form>
<h2 style="font-size:1rem;margin-top:1.5rem">${escape(T.testCards)}</h2>
<table>${cards}</table>`,
  );
}

function challengePage(c: SandboxCheckout) {
  const T = sandboxTexts[c.language];
  return page(
    c.language,
    T.challengeTitle,
    `<h1>${escape(T.challengeTitle)}</h1>
<p>${escape(T.challengeText)}</p>
<p class="amount">${escape(money(c.language, c.amountCents, c.currency))}</p>
<p>${escape(c.description)}</p>
<form method="post" action="/sandbox/challenge/${escape(c.id)}">
  <button class="primary" type="submit" name="result" value="approve">${escape(T.approve)}</button>
  <button class="danger" type="submit" name="result" value="fail">${escape(T.fail)}</button>
</form>`,
  );
}

function finishedPage(c: SandboxCheckout) {
  const T = sandboxTexts[c.language];
  return page(
    c.language,
    T.title,
    `<h1>${escape(T.title)}</h1><p data-testid="sandbox-finished">${escape(
      c.status === "succeeded"
        ? T.finished
        : c.failureCode === "superseded"
          ? T.superseded
          : c.status === "failed" || c.status === "cancelled"
            ? T.closed
            : T.finished,
    )}</p>
${c.returnUrl ? `<p><a href="${escape(c.returnUrl)}">${escape(T.back)}</a></p>` : ""}`,
  );
}

const notFound = (locale: Locale) =>
  page(locale, sandboxTexts[locale].notFound, `<h1>${escape(sandboxTexts[locale].notFound)}</h1>`);

const langOf = (value: string | undefined): Locale => (value === "es" ? "es" : "en");

/** The sandbox's pages, mounted at /sandbox. */
export function sandboxPages(sandbox: SandboxProvider) {
  const back = (c: SandboxCheckout) => c.returnUrl ?? "/";
  return new Hono()
    .use(async (c, next) => {
      await next();
      c.header("Cache-Control", "no-store");
      c.header("X-Robots-Tag", "noindex");
    })
    .get("/checkout/:id", async (c) => {
      const checkout = await sandbox.checkout(c.req.param("id"));
      if (!checkout) return c.html(notFound(langOf(c.req.query("lang"))), 404);
      if (checkout.status === "requires_action")
        return c.redirect(`/sandbox/challenge/${checkout.id}`, 303);
      if (checkout.status !== "open") return c.html(finishedPage(checkout));
      return c.html(checkoutPage(checkout, null, {}));
    })
    .post("/checkout/:id", async (c) => {
      const checkout = await sandbox.checkout(c.req.param("id"));
      if (!checkout) return c.html(notFound(langOf(c.req.query("lang"))), 404);
      if (checkout.status !== "open") return c.html(finishedPage(checkout));
      const form = await c.req.parseBody();
      const field = (name: string) => (typeof form[name] === "string" ? String(form[name]) : "");
      const outcome = await sandbox.pay(checkout.id, {
        number: field("number").slice(0, 40),
        expiry: field("expiry").slice(0, 10),
        cvc: field("cvc").slice(0, 8),
      });
      if (outcome.kind === "invalid")
        return c.html(
          checkoutPage(checkout, sandboxTexts[checkout.language].invalid[outcome.field], {
            number: field("number").slice(0, 40),
            expiry: field("expiry").slice(0, 10),
          }),
          422,
        );
      if (outcome.checkout.status === "requires_action")
        return c.redirect(`/sandbox/challenge/${checkout.id}`, 303);
      return c.redirect(back(outcome.checkout), 303);
    })
    .post("/checkout/:id/cancel", async (c) => {
      const checkout = await sandbox.abandon(c.req.param("id"));
      if (!checkout) return c.html(notFound("en"), 404);
      return c.redirect(back(checkout), 303);
    })
    .get("/challenge/:id", async (c) => {
      const checkout = await sandbox.checkout(c.req.param("id"));
      if (!checkout) return c.html(notFound(langOf(c.req.query("lang"))), 404);
      if (checkout.status !== "requires_action") return c.html(finishedPage(checkout));
      return c.html(challengePage(checkout));
    })
    .post("/challenge/:id", async (c) => {
      const form = await c.req.parseBody();
      const checkout = await sandbox.authenticate(c.req.param("id"), form.result === "approve");
      if (!checkout) return c.html(notFound("en"), 404);
      return c.redirect(back(checkout), 303);
    });
}
