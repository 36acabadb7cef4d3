// The app as one browser tab opens it, answered by the real server in-process: the route table,
// the real session machine and portfolio workspace in a memory router (Testing Library), and every
// API call handled by `createApp` over a fresh embedded database with the demo accounts and a
// simulated market. The tab keeps the server's cookies as a browser does (HttpOnly session
// included), so a sign-in through the screen is a real sign-in. What needs a browser (layout,
// the first page, downloads) stays in tests/e2e; walks over screens and guards come here.
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { expect } from "vitest";
import type { Edition, Locale } from "../../src/contract/common.ts";
import type { Email } from "../../src/server/accounts/emails.ts";
import { DEMO_PASSWORD, seedDemoAccounts } from "../../src/server/accounts/seed.ts";
import { loadConfig } from "../../src/server/config.ts";
import { simulatedDataset } from "../../src/server/market/simulated.ts";
import { databaseTargets } from "./databases.ts";
import { openMarketApp, type MarketApp } from "./market-app.ts";
import { mountTab } from "./mount-tab.tsx";

/** A server of one edition: a fresh embedded database, the demo accounts, a simulated market. */
export interface TabServer {
  readonly edition: Edition;
  readonly market: MarketApp;
  /** The emails the server sent, oldest first. */
  readonly sent: { readonly to: string; readonly email: Email }[];
  /** The first link of the newest email to `to` whose subject starts with `subject`. */
  linkInNewestEmail(to: string, subject: string): string;
  /**
   * A server fault, armed by a test: every tab's call `call` ("GET /api/billing", or a pattern
   * of calls: /^PUT \/api\/banana\/portfolios\/\d+$/) is answered
   * with `status` and `msgCode` (500 INTERNAL_ERROR by default) instead of the app's answer (its
   * retries too) until `heal`.
   */
  fail(call: string | RegExp, status?: number, msgCode?: string): void;
  /** The faults armed are gone: the app answers every call again. */
  heal(): void;
  /** The calls answered with a fault: call (or pattern) to its status and msgCode. */
  readonly faults: ReadonlyMap<
    string | RegExp,
    { readonly status: number; readonly msgCode: string }
  >;
  close(): Promise<void>;
}

export interface TabServerOptions {
  /**
   * More of the server's environment, under EDITION (e.g. SANDBOX_TEST_CLOCK=true for the
   * sandbox's test clock, tests/app/billing-clock.test.tsx). Nothing more by default.
   */
  readonly env?: Readonly<Record<string, string>>;
  /**
   * Whether the bot check lets every sign-up through, for tests that sign people up through the
   * API (what they test starts after it); by default none passes, as in the harness's other users.
   */
  readonly captchaPasses?: boolean;
  /** Analytics workers, for flows that compute (proposals, analyses); none by default. */
  readonly workers?: number;
  /**
   * Business days of the simulated market: 400 by default (quick to import, enough for screens
   * that only list it); a proposal needs the server's own default of 2016 (eight years).
   */
  readonly marketDays?: number;
}

export async function openTabServer(
  edition: Edition,
  options: TabServerOptions = {},
): Promise<TabServer> {
  const env = { ...options.env, EDITION: edition };
  const sent: TabServer["sent"] = [];
  const market = await openMarketApp(databaseTargets[0]!, {
    env,
    captchaPasses: options.captchaPasses ?? false,
    workers: options.workers ?? 0,
    datasets: [simulatedDataset({ end: "2026-11-20", days: options.marketDays ?? 400 })],
    mailer: { kind: "outbox", send: async (to, email) => void sent.push({ to, email }) },
  });
  await seedDemoAccounts(market.database.db, loadConfig(env).policyVersion);
  const faults = new Map<string | RegExp, { status: number; msgCode: string }>();
  return {
    edition,
    market,
    sent,
    faults,
    fail: (call, status = 500, msgCode = "INTERNAL_ERROR") =>
      void faults.set(call, { status, msgCode }),
    heal: () => faults.clear(),
    linkInNewestEmail(to, subject) {
      const mail = sent.findLast((m) => m.to === to && m.email.subject.startsWith(subject));
      const link = mail && /https?:\/\/\S+/.exec(mail.email.text)?.[0];
      if (!link) throw new Error(`no email to ${to} about "${subject}" with a link`);
      return link;
    },
    close: () => market.close(),
  };
}

/** What a browser keeps between its tabs and reloads: the server's cookies, by name. */
export interface TabBrowser {
  readonly cookies: Map<string, string>;
}

export const newBrowser = (): TabBrowser => ({ cookies: new Map() });

/** A fetch that hands each request to the in-process app and keeps its cookies, as a tab does. */
function inProcessFetch(
  server: TabServer,
  jar: Map<string, string>,
  calls: string[],
): typeof fetch {
  return async (input, init) => {
    const request = input instanceof Request ? input : new Request(String(input), init);
    const headers = new Headers(request.headers);
    if (jar.size)
      headers.set("Cookie", [...jar].map(([name, value]) => `${name}=${value}`).join("; "));
    const url = new URL(request.url);
    // A page's writes carry its origin, as every browser sends it (a cookie-authenticated write
    // without it is refused: src/server/http/auth.ts).
    if (!["GET", "HEAD"].includes(request.method) && !headers.has("Origin"))
      headers.set("Origin", url.origin);
    const call = `${request.method} ${url.pathname}`;
    calls.push(call);
    const fault = [...server.faults].find(([match]) =>
      typeof match === "string" ? match === call : match.test(call),
    )?.[1];
    if (fault) return Response.json({ msgCode: fault.msgCode }, { status: fault.status });
    const body = ["GET", "HEAD"].includes(request.method) ? undefined : await request.text();
    const response = await server.market.app.request(`${url.pathname}${url.search}`, {
      method: request.method,
      headers,
      ...(body === undefined ? {} : { body }),
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ""] = cookie.split(";");
      const at = pair.indexOf("=");
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      const expired = /max-age=0\b/i.test(cookie) || /expires=[^;]*1970/i.test(cookie);
      if (expired || value === "") jar.delete(name);
      else jar.set(name, value);
    }
    return response;
  };
}

/**
 * A request the browser makes outside the app's own calls (a page of the sandbox provider, a form
 * posted there, an API call by hand): handed to the in-process app with the browser's cookies, and
 * the answer's cookies kept. `path` is the server's (`/api/...`, `/sandbox/...`); redirects are not
 * followed (the answer says where the browser would go).
 */
export function browserRequest(
  server: TabServer,
  browser: TabBrowser,
): (path: string, init?: RequestInit) => Promise<Response> {
  const fetchIn = inProcessFetch(server, browser.cookies, []);
  return (path, init) => fetchIn(new URL(path, "http://localhost").href, init);
}

/**
 * Opens the app at `path` in a new tab of `server`, in `browser` (its cookies: a new browser is a
 * guest until it signs in). Reloading is unmounting the tab and opening it again in the same one.
 */
export async function openServerTab(
  server: TabServer,
  path: string,
  browser: TabBrowser = newBrowser(),
) {
  const calls: string[] = [];
  const tab = await mountTab({
    path,
    edition: server.edition,
    fetch: inProcessFetch(server, browser.cookies, calls),
  });
  return { ...tab, calls, browser };
}

export type ServerTab = Awaited<ReturnType<typeof openServerTab>>;

/** The tab's address: path and query. */
export const whereIs = (tab: ServerTab) =>
  `${tab.router.state.location.pathname}${tab.router.state.location.search}`;

const signInWords = {
  path: { en: "/en/sign-in", es: "/es/acceso-de-usuario" },
  password: { en: "Password", es: "Contraseña" },
  submit: { en: "Sign in", es: "Acceder" },
} as const;

/**
 * Opens the sign-in screen in a new tab, signs in as a demo account (README, "Demo accounts")
 * through the form, and waits until the screen is left: the tab is then signed in.
 */
export async function signInThroughScreen(
  server: TabServer,
  locale: Locale,
  email: string,
  browser: TabBrowser = newBrowser(),
): Promise<ServerTab> {
  const tab = await openServerTab(server, signInWords.path[locale], browser);
  const password = await screen.findByLabelText(signInWords.password[locale], {
    selector: "input",
  });
  const form = password.closest("form")!;
  fireEvent.change(within(form).getByLabelText("Email", { selector: "input" }), {
    target: { value: email },
  });
  fireEvent.change(password, { target: { value: DEMO_PASSWORD } });
  fireEvent.click(within(form).getByRole("button", { name: signInWords.submit[locale] }));
  await waitFor(
    () => expect(tab.router.state.location.pathname).not.toBe(signInWords.path[locale]),
    {
      timeout: 10_000,
    },
  );
  return tab;
}
