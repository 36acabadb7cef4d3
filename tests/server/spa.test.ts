import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decode } from "../../src/contract/decode.ts";
import { RuntimeConfig } from "../../src/contract/runtime-config.ts";
import { createApp, type AppDeps } from "../../src/server/app.ts";
import { loadConfig } from "../../src/server/config.ts";
import { createLogger } from "../../src/server/logger.ts";
import {
  acceptedEncoding,
  FIRST_PAGE_FILE,
  injectFirstPage,
  routeOfPath,
  type FirstPage,
} from "../../src/server/spa.ts";
import { precompress } from "../../scripts/precompress.ts";

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

describe("light first page", () => {
  const LONG_JS = `export const x = ${JSON.stringify("abc ".repeat(2000))};\n`;
  const FIRST_PAGE: FirstPage = {
    routes: [
      { id: "index", paths: { en: "", es: "" }, js: ["/assets/home-1.js"], css: [] },
      {
        id: "auth-SignIn",
        paths: { en: "/sign-in", es: "/acceso-de-usuario" },
        js: ["/assets/sign-in-1.js", "/assets/form-1.js"],
        css: ["/assets/form-1.css"],
      },
      {
        id: "account-portfolio",
        paths: {
          en: "/my-account/portfolios/portfolio-{id}",
          es: "/mi-cuenta/carteras/cartera-{id}",
        },
        js: ["/assets/portfolio-1.js"],
        css: [],
      },
    ],
    catalogs: { en: ["/assets/messages-en.js"], es: ["/assets/messages-es.js"] },
    shells: {
      ht: {
        en: { "auth-SignIn": "<main>Sign in ht</main>" },
        es: { "auth-SignIn": "<main>Acceder ht</main>" },
      },
      tt: { en: { "auth-SignIn": "<main>Sign in tt</main>" } },
    },
    consent: {
      ht: { en: '<div id="cc-main" data-first-page="">cookies ht</div>' },
      tt: { es: '<div id="cc-main" data-first-page="">cookies tt</div>' },
    },
  };
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "spa-first-"));
    await mkdir(path.join(dir, "assets"));
    await writeFile(
      path.join(dir, "index.html"),
      INDEX_HTML.replace("<html>", '<html lang="en">').replace(
        "</head>",
        `<script type="module" crossorigin src="/assets/entry-1.js"></script><link rel="modulepreload" crossorigin href="/assets/vendor-1.js"></head>`,
      ),
    );
    await writeFile(path.join(dir, FIRST_PAGE_FILE), JSON.stringify(FIRST_PAGE));
    await writeFile(path.join(dir, "assets", "big.js"), LONG_JS);
    await precompress(dir, (f) => f === FIRST_PAGE_FILE);
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const get = (app: ReturnType<typeof makeApp>, url: string, encoding?: string) =>
    app.request(url, encoding === undefined ? {} : { headers: { "Accept-Encoding": encoding } });

  it("writes brotli and gzip beside text assets at build, not beside small files", async () => {
    const small = await mkdtemp(path.join(tmpdir(), "spa-small-"));
    try {
      await writeFile(path.join(small, "tiny.js"), "1");
      await precompress(small);
      expect(existsSync(path.join(small, "tiny.js.br"))).toBe(false);
    } finally {
      await rm(small, { recursive: true, force: true });
    }
    expect(
      brotliDecompressSync(await readFile(path.join(dir, "assets", "big.js.br"))).toString(),
    ).toBe(LONG_JS);
    expect(gunzipSync(await readFile(path.join(dir, "assets", "big.js.gz"))).toString()).toBe(
      LONG_JS,
    );
    expect(existsSync(path.join(dir, `${FIRST_PAGE_FILE}.br`))).toBe(false);
  });

  it.each([
    ["gzip, deflate, br, zstd", "br"],
    ["gzip", "gzip"],
    ["br;q=0, gzip", "gzip"],
    ["identity", null],
  ])("serves an asset precompressed for Accept-Encoding %s", async (accept, expected) => {
    const app = makeApp({ DIST_DIR: dir });
    const res = await get(app, "/assets/big.js", accept);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/javascript/);
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(res.headers.get("vary")).toMatch(/Accept-Encoding/);
    const body = Buffer.from(await res.arrayBuffer());
    if (expected === "br") {
      expect(res.headers.get("content-encoding")).toBe("br");
      expect(brotliDecompressSync(body).toString()).toBe(LONG_JS);
    } else if (expected === "gzip") {
      expect(res.headers.get("content-encoding")).toBe("gzip");
      expect(gunzipSync(body).toString()).toBe(LONG_JS);
    } else {
      expect(res.headers.get("content-encoding")).toBeNull();
      expect(body.toString()).toBe(LONG_JS);
    }
  });

  it("chooses encodings by quality", () => {
    expect(acceptedEncoding(undefined)).toBeNull();
    expect(acceptedEncoding("gzip;q=0.5, br;q=1.0")).toBe("br");
    expect(acceptedEncoding("*")).toBe("br");
    expect(acceptedEncoding("br;q=0, gzip;q=0")).toBeNull();
  });

  it("compresses the page and never caches it", async () => {
    const app = makeApp({ DIST_DIR: dir });
    const res = await get(app, "/en/sign-in", "gzip, br");
    expect(res.headers.get("content-encoding")).toBe("br");
    expect(res.headers.get("cache-control")).toBe("no-cache");
    expect(res.headers.get("vary")).toBe("Accept-Encoding, Cookie");
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    const html = brotliDecompressSync(Buffer.from(await res.arrayBuffer())).toString();
    expect(embeddedConfig(html).value).toMatchObject({ edition: "ht" });
    const plain = await (await get(app, "/en/sign-in", "identity")).text();
    expect(plain).toBe(html);
  });

  it("preloads the route's screen and the language's catalog and prerenders the public screen", async () => {
    const app = makeApp({ DIST_DIR: dir });
    const html = await (await get(app, "/es/acceso-de-usuario")).text();
    expect(html).toContain('<html lang="es">');
    const preload = (href: string) =>
      `<link rel="modulepreload" fetchpriority="low" crossorigin href="${href}">`;
    expect(html).toContain(preload("/assets/messages-es.js"));
    expect(html).toContain(preload("/assets/sign-in-1.js"));
    expect(html).toContain(preload("/assets/form-1.js"));
    expect(html).toContain('<link rel="stylesheet" crossorigin href="/assets/form-1.css">');
    expect(html).not.toContain("messages-en.js");
    expect(html).toContain('<div id="root"><main>Acceder ht</main></div>');
    expect(html.indexOf("modulepreload")).toBeLessThan(html.indexOf("</head>"));
  });

  it("fetches the scripts of a prerendered page at low priority, and only of such a page", async () => {
    const app = makeApp({ DIST_DIR: dir });
    const prerendered = await (await get(app, "/en/sign-in")).text();
    expect(prerendered).toContain(
      '<script type="module" fetchpriority="low" crossorigin src="/assets/entry-1.js">',
    );
    expect(prerendered).toContain(
      '<link rel="modulepreload" fetchpriority="low" crossorigin href="/assets/vendor-1.js">',
    );
    expect(prerendered.match(/<(script type="module"|link rel="modulepreload")/g)).toHaveLength(
      prerendered.match(/fetchpriority="low"/g)?.length ?? 0,
    );
    // Without prerendered markup the page shows nothing until its scripts run: they stay urgent.
    for (const url of ["/en/my-account/portfolios/portfolio-3", "/es/nope", "/en"]) {
      const page = await (await get(app, url)).text();
      expect(page).toContain('<script type="module" crossorigin src="/assets/entry-1.js">');
      expect(page).toContain("modulepreload");
      expect(page).not.toContain("fetchpriority");
    }
  });

  it("prerenders the server's edition", async () => {
    const app = makeApp({ DIST_DIR: dir, EDITION: "tt" });
    const html = await (await get(app, "/en/sign-in")).text();
    expect(html).toContain('<div id="root"><main>Sign in tt</main></div>');
    expect((embeddedConfig(html).value as { edition: string }).edition).toBe("tt");
    const es = await (await get(app, "/es/acceso-de-usuario")).text();
    expect(es).toContain('<div id="root"></div>');
  });

  it("matches routes with parameters and leaves unknown paths without a screen", async () => {
    const app = makeApp({ DIST_DIR: dir });
    const portfolio = await (await get(app, "/es/mi-cuenta/carteras/cartera-12")).text();
    expect(portfolio).toContain("/assets/portfolio-1.js");
    expect(portfolio).toContain('<div id="root"></div>');
    const missing = await (await get(app, "/es/nope")).text();
    expect(missing).toContain('<html lang="es">');
    expect(missing).toContain("/assets/messages-es.js");
    expect(missing).not.toContain("/assets/home-1.js");
    expect(
      routeOfPath(FIRST_PAGE, "/en/my-account/portfolios/portfolio-0", () => "en").routeId,
    ).toBeNull();
  });

  it("gives / the remembered language, else the browser's", async () => {
    const app = makeApp({ DIST_DIR: dir });
    const byCookie = await app.request("/", {
      headers: { Cookie: "lang=es", "Accept-Language": "en" },
    });
    expect(await byCookie.text()).toContain("/assets/messages-es.js");
    expect(byCookie.headers.get("vary")).toMatch(/Cookie/);
    const byBrowser = await app.request("/", { headers: { "Accept-Language": "es-ES,es;q=0.9" } });
    const html = await byBrowser.text();
    expect(html).toContain("/assets/messages-es.js");
    expect(html).toContain("/assets/home-1.js");
  });

  it("paints the consent banner until the visitor has chosen", async () => {
    const app = makeApp({ DIST_DIR: dir });
    const first = await (await get(app, "/en/sign-in")).text();
    expect(first).toContain('<div id="cc-main" data-first-page="">cookies ht</div>\n  </body>');
    const chosen = await app.request("/en/sign-in", { headers: { Cookie: "ht_consent=%7B%7D" } });
    expect(await chosen.text()).not.toContain("cc-main");
    expect(chosen.headers.get("vary")).toMatch(/Cookie/);
    // Another edition's choice does not count; a language without a banner gets none.
    const tt = makeApp({ DIST_DIR: dir, EDITION: "tt" });
    const es = await tt.request("/es", { headers: { Cookie: "ht_consent=%7B%7D" } });
    expect(await es.text()).toContain("cookies tt");
    expect(await (await get(tt, "/en")).text()).not.toContain("cc-main");
  });

  it("does not serve the server's first-page file", async () => {
    const app = makeApp({ DIST_DIR: dir });
    expect((await app.request(`/${FIRST_PAGE_FILE}`)).status).toBe(404);
  });

  it("still serves a build without first-page data", async () => {
    const app = makeApp({ DIST_DIR: distDir });
    const html = await (await app.request("/es/mercados")).text();
    expect(html).toContain('<div id="root"></div>');
    expect(html).not.toContain("modulepreload");
  });

  it("injects nothing but the language when there is no first-page data", () => {
    expect(
      injectFirstPage('<html lang="en"><head></head>', null, "ht", {
        routeId: "index",
        locale: "es",
      }),
    ).toBe('<html lang="es"><head></head>');
  });
});
