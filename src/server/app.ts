import { promisify } from "node:util";
import { brotliCompress, constants as zlib, gzip } from "node:zlib";
import { Hono, type MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { secureHeaders } from "hono/secure-headers";
import { contentSecurityPolicy } from "./http/csp.ts";
import { noStoreByDefault, permissionsPolicy, sameSiteWrites } from "./http/protocol.ts";
import { CommonQuery } from "../contract/common.ts";
import { RuntimeConfig } from "../contract/runtime-config.ts";
import { runtimeConfigOf } from "./config.ts";
import { ApiFailure } from "./http/api-failure.ts";
import { checkQueryString, queryOf, reply } from "./http/validate.ts";
import { healthRoutes } from "./routes/health.ts";
import { authRoutes } from "./routes/auth.ts";
import { clientRoutes } from "./routes/client.ts";
import { devOutboxPage, devRoutes } from "./routes/dev.ts";
import { marketRoutes } from "./routes/market.ts";
import { analyticsRoutes } from "./routes/analytics.ts";
import { portfoliosRoutes } from "./routes/portfolios.ts";
import { educationRoutes } from "./routes/education.ts";
import { educationContent } from "./education/content.ts";
import { bananaRoutes } from "./banana/routes.ts";
import { billingRoutes, subscriptionRoutes } from "./routes/billing.ts";
import type { BillingDeps } from "./billing/context.ts";
import { billingService } from "./billing/service.ts";
import { background } from "./http/background.ts";
import { createSandboxProvider } from "./billing/sandbox.ts";
import { sandboxPages } from "./billing/sandbox-pages.ts";
import { acceptedEncoding, spaRoutes } from "./spa.ts";
import type { AppDeps, AppEnv } from "./app-env.ts";

export type { AppDeps, AppEnv } from "./app-env.ts";

/** JSON answers smaller than this go as they are: compressing them saves less than it costs. */
export const COMPRESS_MIN_BYTES = 1024;
const compressors = {
  br: (data: Uint8Array) =>
    promisify(brotliCompress)(data, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5 } }),
  gzip: (data: Uint8Array) => promisify(gzip)(data, { level: 6 }),
};

/**
 * Compresses JSON answers of the API (brotli, else gzip, as the client accepts) from 1 kB on.
 * Anything else (event streams, files, already encoded answers) goes through untouched.
 */
export function compressJson(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const res = c.res;
    if (!/^application\/(?:[\w.+-]+\+)?json\b/i.test(res.headers.get("content-type") ?? "")) return;
    if (!res.body || res.headers.has("content-encoding")) return;
    const vary = res.headers.get("vary");
    if (!vary?.split(",").some((v) => v.trim().toLowerCase() === "accept-encoding"))
      res.headers.set("Vary", vary ? `${vary}, Accept-Encoding` : "Accept-Encoding");
    const encoding = acceptedEncoding(c.req.header("accept-encoding"));
    if (!encoding) return;
    const body = new Uint8Array(await res.arrayBuffer());
    const headers = new Headers(res.headers);
    if (body.byteLength < COMPRESS_MIN_BYTES) {
      c.res = new Response(body, { status: res.status, statusText: res.statusText, headers });
      return;
    }
    const compressed = await compressors[encoding](body);
    headers.set("Content-Encoding", encoding);
    headers.delete("Content-Length");
    res.headers.delete("Content-Length"); // Hono copies the previous answer's headers over
    c.res = new Response(new Uint8Array(compressed), {
      status: res.status,
      statusText: res.statusText,
      headers,
    });
  };
}

export function createApp(deps: AppDeps) {
  const clock = deps.clock ?? (() => new Date());
  // The sandbox delivers its signed events to our own events endpoint, through the whole HTTP stack.
  const sandbox = deps.paymentProvider
    ? null
    : createSandboxProvider({
        db: deps.database.db,
        logger: deps.logger,
        clock,
        secret: deps.config.billingWebhookSecret ?? undefined,
        // The payer's payment and what it grants commit together, before the payer is sent back.
        settle: (tx, payment) => billing.applyWithin(tx, payment),
        deliver: async (body, headers) => {
          const res = await app.request(`${deps.config.apiBase}/billing/events`, {
            method: "POST",
            body,
            headers,
          });
          if (!res.ok) throw new Error(`events endpoint answered ${res.status}`);
        },
      });
  const billingDeps: BillingDeps = {
    db: deps.database.db,
    provider: deps.paymentProvider ?? sandbox!,
    mailer: deps.mailer,
    logger: deps.logger,
    edition: deps.config.edition,
    publicUrl: deps.config.publicUrl,
    policyVersion: deps.config.policyVersion,
    clock,
  };
  const billing = billingService(billingDeps);
  // Work that follows an answer (a saved portfolio's first valuation); shutdown waits for it.
  const tasks = background();

  const api = new Hono<AppEnv>()
    // A page of another site cannot change anything here (docs/operations.md, "Security").
    .use(sameSiteWrites(deps.config.publicUrl))
    .use(noStoreByDefault())
    // Bodies are small (500 assets is about 30 kB): anything larger is refused before it is read.
    .use(
      bodyLimit({
        maxSize: deps.config.maxBodyBytes,
        onError: () => {
          throw new ApiFailure(413, "PAYLOAD_TOO_LARGE");
        },
      }),
    )
    .use(async (c, next) => {
      checkQueryString(c);
      // Every request names the edition it was built for; a mismatch would mix two products' data.
      const query = queryOf(c, CommonQuery);
      if (query.ctx && query.ctx !== deps.config.edition)
        throw new ApiFailure(400, "EDITION_MISMATCH");
      await next();
    })
    .route("/health", healthRoutes(deps))
    .get("/config", (c) => reply(c, RuntimeConfig, runtimeConfigOf(deps.config)))
    .route("/auth", authRoutes(deps))
    .route("/client", clientRoutes(deps))
    .route("/market", marketRoutes(deps))
    .route("/analytics", analyticsRoutes(deps))
    .route("/portfolios", portfoliosRoutes(deps, tasks))
    .route("/banana", bananaRoutes(deps))
    .route("/billing", billingRoutes(deps, billing, billingDeps))
    .route("/", subscriptionRoutes(deps, billing))
    .route(
      "/",
      educationRoutes(deps, () => educationContent(deps.contentDir)),
    );
  // Mounted always: where the outbox is not allowed its middleware answers 404 (the page's path
  // must never fall through to the app's own pages).
  api.route("/dev", devRoutes(deps));
  api.all("*", () => {
    throw new ApiFailure(404, "NOT_FOUND");
  });

  const app = new Hono<AppEnv>();
  app.use(async (c, next) => {
    const requestId = c.req.header("x-request-id") ?? crypto.randomUUID();
    c.set("requestId", requestId);
    c.header("X-Request-Id", requestId);
    const started = performance.now();
    await next();
    deps.logger.info("request", {
      requestId,
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      durationMs: Math.round((performance.now() - started) * 100) / 100,
    });
  });
  app.use(
    secureHeaders({
      contentSecurityPolicy: contentSecurityPolicy(deps.config),
      crossOriginEmbedderPolicy: false,
      referrerPolicy: "strict-origin-when-cross-origin",
      permissionsPolicy,
    }),
  );
  // A path with a NUL character names nothing (no route, file or row can): 404 before any route,
  // for the pages and the sandbox's as for the API (docs/operations.md, "Security").
  app.use(async (c, next) => {
    if (c.req.path.includes("\u0000") || /%00/i.test(c.req.path))
      throw new ApiFailure(404, "NOT_FOUND");
    await next();
  });
  app.use(`${deps.config.apiBase}/*`, compressJson());
  app.route(deps.config.apiBase, api);
  app.route("/_dev", devOutboxPage(deps));
  if (sandbox) app.route("/sandbox", sandboxPages(sandbox));
  app.route("/", spaRoutes(deps));

  app.onError((error, c) => {
    if (error instanceof ApiFailure) {
      for (const [name, value] of Object.entries(error.headers)) c.header(name, value);
      return c.json(
        { msgCode: error.msgCode, ...(error.issues ? { issues: error.issues } : {}) },
        error.status,
      );
    }
    deps.logger.error("unhandled error", { requestId: c.get("requestId"), error });
    return c.json({ msgCode: "INTERNAL_ERROR" }, 500);
  });
  return Object.assign(app, { billing, billingDeps, settled: tasks.settled });
}
