import { readFile } from "node:fs/promises";
import path from "node:path";
import { Hono, type MiddlewareHandler } from "hono";
import { serveStatic } from "@hono/node-server/serve-static";
import { runtimeConfigOf } from "./config.ts";
import type { AppDeps } from "./app.ts";

const CONFIG_PLACEHOLDER = "<!--app-config-->";

/** Embeds the runtime configuration in the page, as data (not script), so no extra request is needed. */
export function injectRuntimeConfig(html: string, deps: Pick<AppDeps, "config">): string {
  const json = JSON.stringify(runtimeConfigOf(deps.config)).replaceAll("<", "\\u003c");
  return html.replace(
    CONFIG_PLACEHOLDER,
    `<script type="application/json" id="app-config">${json}</script>`,
  );
}

/** Serves the built app: hashed assets for a year, the version file never cached, and every client route as index.html. */
export function spaRoutes(deps: AppDeps) {
  const root = path.relative(process.cwd(), deps.config.distDir) || ".";
  let indexHtml: Promise<string> | null = null;
  const page = () =>
    (indexHtml ??= readFile(path.join(deps.config.distDir, "index.html"), "utf8").then((html) =>
      injectRuntimeConfig(html, deps),
    ));

  const publicFiles = serveStatic({ root });
  const hourly = cacheControl("public, max-age=3600");

  return new Hono()
    .use("/assets/*", cacheControl("public, max-age=31536000, immutable"), serveStatic({ root }))
    .use("/builds/*", cacheControl("no-store"), serveStatic({ root }))
    .use("*", async (c, next) => {
      // Files (favicon, logos) are served as they are; a missing file is a 404, not the app.
      if (!hasExtension(c.req.path) || c.req.path.endsWith("/index.html")) return next();
      let served: Response | void = undefined;
      await hourly(c, async () => {
        served = await publicFiles(c, async () => {});
        if (served) c.res = served;
      });
      return served ?? c.notFound();
    })
    .get("*", async (c) => {
      try {
        c.header("Cache-Control", "no-cache");
        return c.html(await page());
      } catch {
        indexHtml = null;
        return c.text("The app has not been built: run `npm run build`.", 503);
      }
    });
}

/** Sets Cache-Control on a file the next handler served (serveStatic's onFound runs too late for it). */
const cacheControl =
  (value: string): MiddlewareHandler =>
  async (c, next) => {
    await next();
    if (c.res.ok) c.header("Cache-Control", value);
  };

const hasExtension = (p: string) => /\.[a-z0-9]+$/i.test(p);
