import { Hono } from "hono";
import { createMiddleware } from "hono/factory";
import { getConnInfo } from "@hono/node-server/conninfo";
import { desc } from "drizzle-orm";
import { Outbox } from "../../contract/accounts.ts";
import type { AppDeps, AppEnv } from "../app-env.ts";
import { isLoopback, outboxAllowed } from "../config.ts";
import { outbox } from "../db/schema.ts";
import { ApiFailure } from "../http/api-failure.ts";
import { reply } from "../http/validate.ts";

/** The socket's peer address (never a forwarded one), or null when there is no socket. */
function socketAddress(c: Parameters<typeof getConnInfo>[0]): string | null {
  try {
    return getConnInfo(c).remote.address ?? null;
  } catch {
    return null;
  }
}

/**
 * The outbox holds recovery links: it answers only a loopback peer that asked for a loopback host
 * (a page on another site that rebinds its name to 127.0.0.1 sends its own Host), on a server
 * where it is allowed at all (config.ts). Anyone else gets the 404 of a missing route.
 */
const loopbackOnly = (deps: Pick<AppDeps, "config">) =>
  createMiddleware<AppEnv>(async (c, next) => {
    const host = new URL(c.req.url).hostname;
    if (
      !deps.config.outboxPage ||
      !outboxAllowed(deps.config) ||
      !isLoopback(socketAddress(c)) ||
      !isLoopback(host)
    )
      throw new ApiFailure(404, "NOT_FOUND");
    await next();
  });

/** Development only: the emails kept in the outbox, newest first, so links can be followed. */
export function devRoutes(deps: AppDeps) {
  return new Hono<AppEnv>().use(loopbackOnly(deps)).get("/outbox", async (c) => {
    const rows = await deps.database.db.select().from(outbox).orderBy(desc(outbox.id)).limit(100);
    c.header("Cache-Control", "no-store");
    return reply(
      c,
      Outbox,
      rows.map((r) => ({
        id: r.id,
        to: r.to,
        subject: r.subject,
        text: r.text,
        createdAt: r.createdAt.toISOString(),
      })),
    );
  });
}

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]!,
  );

/** Development only: the outbox as a page, with the links in each message clickable. */
export function devOutboxPage(deps: AppDeps) {
  return new Hono<AppEnv>().use(loopbackOnly(deps)).get("/outbox", async (c) => {
    const rows = await deps.database.db.select().from(outbox).orderBy(desc(outbox.id)).limit(100);
    const items = rows
      .map((r) => {
        const body = escapeHtml(r.text).replace(
          /(https?:\/\/[^\s<]+)/g,
          (url) => `<a href="${url}">${url}</a>`,
        );
        return `<article><h2>${escapeHtml(r.subject)}</h2><p class="meta">To ${escapeHtml(r.to)} · ${r.createdAt.toISOString()}</p><pre>${body}</pre></article>`;
      })
      .join("\n");
    c.header("Cache-Control", "no-store");
    return c.html(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Outbox (development)</title><style>body{font-family:system-ui,sans-serif;max-width:860px;margin:2rem auto;padding:0 1rem;color:#14211f}article{border:1px solid #ccd;border-radius:8px;padding:1rem;margin:1rem 0}pre{white-space:pre-wrap;font:inherit}.meta{color:#4a5a57}</style></head><body><h1>Outbox (development)</h1><p>Emails are kept here because no SMTP server is configured.</p>${items || "<p>No messages yet.</p>"}</body></html>`,
    );
  });
}
