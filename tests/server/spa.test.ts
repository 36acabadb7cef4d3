import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decode } from "../../src/contract/decode.ts";
import { RuntimeConfig } from "../../src/contract/runtime-config.ts";
import { createApp, type AppDeps } from "../../src/server/app.ts";
import { loadConfig } from "../../src/server/config.ts";
import { createLogger } from "../../src/server/logger.ts";

/** A dependency these routes must not use: touching any of its properties fails the test. */
const unused = (name: string): unknown =>
  new Proxy(
    {},
    {
      get: (_target, key) => {
        throw new Error(`${name}.${String(key)} must not be used by these routes`);
      },
    },
  );

const unusedDatabase = {
  db: unused("db"),
  driver: "pglite",
  migrate: unused("migrate"),
  close: unused("close"),
};

const INDEX_HTML = `<!doctype html><html><head><title>t</title><!--app-config--></head><body><div id="root"></div></body></html>`;
const HOSTILE = "</script><script>alert(1)</script>";

let distDir: string;
let emptyDistDir: string;

beforeAll(async () => {
  distDir = await mkdtemp(path.join(tmpdir(), "spa-dist-"));
  await mkdir(path.join(distDir, "assets"));
  await mkdir(path.join(distDir, "builds"));
  await writeFile(path.join(distDir, "index.html"), INDEX_HTML);
  await writeFile(path.join(distDir, "assets", "x.js"), "console.log('x');\n");
  await writeFile(
    path.join(distDir, "builds", "latest.json"),
    JSON.stringify({ build: "b-1" }) + "\n",
  );
  await writeFile(path.join(distDir, "favicon.svg"), "<svg xmlns='http://www.w3.org/2000/svg'/>");
  emptyDistDir = await mkdtemp(path.join(tmpdir(), "spa-empty-"));
});

afterAll(async () => {
  await rm(distDir, { recursive: true, force: true });
  await rm(emptyDistDir, { recursive: true, force: true });
});

function makeApp(env: Record<string, string>) {
  const deps = {
    config: loadConfig(env),
    database: unusedDatabase,
    logger: createLogger("silent"),
    version: "0.0.0-test",
    mailer: unused("mailer"),
    botCheck: unused("botCheck"),
    pool: unused("pool"),
  } as AppDeps;
  return createApp(deps);
}

function embeddedConfig(html: string): { raw: string; value: unknown } {
  const match = /<script type="application\/json" id="app-config">([\s\S]*?)<\/script>/.exec(html);
  if (!match?.[1]) throw new Error(`no embedded app-config in: ${html}`);
  return { raw: match[1], value: JSON.parse(match[1]) as unknown };
}

describe("single-page app routes", () => {
  it("answers a client route with index.html carrying the runtime configuration of the server's edition", async () => {
    const app = makeApp({ DIST_DIR: distDir, EDITION: "tt" });
    const res = await app.request("/es/mi-cuenta/carteras");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    expect(res.headers.get("cache-control")).toBe("no-cache");
    const html = await res.text();
    expect(html).not.toContain("<!--app-config-->");
    expect(html).toContain('<div id="root"></div>');
    const decoded = decode(RuntimeConfig, embeddedConfig(html).value);
    if (!decoded.ok) throw new Error(JSON.stringify(decoded.issues));
    expect(decoded.value).toMatchObject({
      edition: "tt",
      apiBase: "/api",
      marketingScriptUrl: null,
      recaptchaSiteKey: null,
    });
  });

  it("embeds the ht edition when the server runs ht", async () => {
    const app = makeApp({ DIST_DIR: distDir, EDITION: "ht" });
    const html = await (await app.request("/en/my-account/portfolios")).text();
    expect((embeddedConfig(html).value as { edition: string }).edition).toBe("ht");
  });

  it("answers the root path with the app too", async () => {
    const app = makeApp({ DIST_DIR: distDir });
    const res = await app.request("/");
    expect(res.status).toBe(200);
    expect(embeddedConfig(await res.text()).value).toMatchObject({ edition: "ht" });
  });

  it("escapes < in configuration values so they cannot close the script element", async () => {
    const app = makeApp({
      DIST_DIR: distDir,
      RECAPTCHA_SITE_KEY: HOSTILE,
      RECAPTCHA_SECRET: "secret",
      MARKETING_SCRIPT_URL: "https://marketing.test/a.js?x=</script>",
    });
    const html = await (await app.request("/en/markets")).text();
    expect(html).not.toContain("<script>alert(1)");
    expect(html.match(/<\/script>/g)).toHaveLength(1);
    const { raw, value } = embeddedConfig(html);
    expect(raw).not.toContain("<");
    expect(raw).toContain("\\u003c/script>");
    expect(value).toMatchObject({
      recaptchaSiteKey: HOSTILE,
      marketingScriptUrl: "https://marketing.test/a.js?x=</script>",
    });
  });
});

describe("static files", () => {
  it("caches hashed assets for a year, never the version file, other files for an hour", async () => {
    const app = makeApp({ DIST_DIR: distDir });
    expect((await app.request("/assets/x.js")).headers.get("cache-control")).toBe(
      "public, max-age=31536000, immutable",
    );
    expect((await app.request("/builds/latest.json")).headers.get("cache-control")).toBe(
      "no-store",
    );
    const favicon = await app.request("/favicon.svg");
    expect(favicon.status).toBe(200);
    expect(favicon.headers.get("cache-control")).toBe("public, max-age=3600");
  });

  it("serves hashed assets with their content and type", async () => {
    const app = makeApp({ DIST_DIR: distDir });
    const res = await app.request("/assets/x.js");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/javascript/);
    expect(await res.text()).toBe("console.log('x');\n");
  });

  it("serves builds/latest.json as the file, not the app", async () => {
    const app = makeApp({ DIST_DIR: distDir });
    const res = await app.request("/builds/latest.json");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ build: "b-1" });
  });

  it("serves other public files at the root as they are", async () => {
    const app = makeApp({ DIST_DIR: distDir });
    const res = await app.request("/favicon.svg");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^image\/svg\+xml/);
    expect(await res.text()).toContain("<svg");
  });

  it("answers a missing file with an extension with 404, not the app", async () => {
    const app = makeApp({ DIST_DIR: distDir });
    const res = await app.request("/nope.png");
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain("app-config");
  });

  it("answers a missing asset with 404, not the app", async () => {
    const app = makeApp({ DIST_DIR: distDir });
    const res = await app.request("/assets/missing-123.js");
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain("app-config");
  });

  it("answers 503 when the app has not been built (no index.html)", async () => {
    const app = makeApp({ DIST_DIR: emptyDistDir });
    const res = await app.request("/en/markets");
    expect(res.status).toBe(503);
    expect(await res.text()).toMatch(/not been built/);
  });

  it("keeps answering 503 until index.html exists, then serves it", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "spa-late-"));
    try {
      const app = makeApp({ DIST_DIR: dir });
      expect((await app.request("/en")).status).toBe(503);
      await writeFile(path.join(dir, "index.html"), INDEX_HTML);
      const res = await app.request("/en");
      expect(res.status).toBe(200);
      expect(embeddedConfig(await res.text()).value).toMatchObject({ edition: "ht" });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
