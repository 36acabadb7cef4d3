import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COMPRESS_MIN_BYTES, compressJson, createApp, type AppDeps } from "../../src/server/app.ts";
import { loadConfig } from "../../src/server/config.ts";
import { createLogger } from "../../src/server/logger.ts";
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

const big = { rows: Array.from({ length: 200 }, (_, i) => ({ id: i, name: `row number ${i}` })) };
const bigText = JSON.stringify(big);

/** The middleware alone, before a few answers of each kind. */
function bare() {
  return new Hono()
    .use(compressJson())
    .get("/big", (c) => c.json(big))
    .get("/small", (c) => c.json({ ok: true }))
    .get("/failure", (c) => c.json(big, 422))
    .get("/events", (c) => {
      c.header("Content-Type", "text/event-stream");
      return c.body(`data: ${bigText}\n\n`);
    })
    .get("/encoded", (c) => {
      c.header("Content-Type", "application/json");
      c.header("Content-Encoding", "gzip");
      return c.body(new Uint8Array([1, 2, 3]));
    })
    .get("/text", (c) => c.text(bigText));
}

const get = (app: { request: Hono["request"] }, url: string, encoding?: string) =>
  app.request(url, encoding === undefined ? {} : { headers: { "Accept-Encoding": encoding } });

describe("compression of JSON answers", () => {
  it("sends brotli when accepted, else gzip", async () => {
    expect(bigText.length).toBeGreaterThan(COMPRESS_MIN_BYTES);
    const br = await get(bare(), "/big", "gzip, deflate, br");
    expect(br.status).toBe(200);
    expect(br.headers.get("content-encoding")).toBe("br");
    expect(br.headers.get("vary")).toBe("Accept-Encoding");
    expect(br.headers.get("content-type")).toMatch(/^application\/json/);
    expect(br.headers.get("content-length")).toBeNull();
    const brBody = Buffer.from(await br.arrayBuffer());
    expect(brBody.length).toBeLessThan(bigText.length / 3);
    expect(brotliDecompressSync(brBody).toString()).toBe(bigText);

    const gz = await get(bare(), "/big", "gzip");
    expect(gz.headers.get("content-encoding")).toBe("gzip");
    expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString()).toBe(bigText);
  });

  it("keeps the status of an error answer", async () => {
    const res = await get(bare(), "/failure", "br");
    expect(res.status).toBe(422);
    expect(res.headers.get("content-encoding")).toBe("br");
  });

  it("leaves answers alone when the client accepts no encoding", async () => {
    for (const encoding of [undefined, "identity", "br;q=0, gzip;q=0"]) {
      const res = await get(bare(), "/big", encoding);
      expect(res.headers.get("content-encoding")).toBeNull();
      expect(res.headers.get("vary")).toBe("Accept-Encoding");
      expect(await res.text()).toBe(bigText);
    }
  });

  it("does not compress small answers", async () => {
    const res = await get(bare(), "/small", "br, gzip");
    expect(res.headers.get("content-encoding")).toBeNull();
    expect(res.headers.get("vary")).toBe("Accept-Encoding");
    expect(await res.json()).toEqual({ ok: true });
  });

  it("never touches event streams, other types or answers already encoded", async () => {
    const events = await get(bare(), "/events", "br, gzip");
    expect(events.headers.get("content-encoding")).toBeNull();
    expect(await events.text()).toBe(`data: ${bigText}\n\n`);
    const text = await get(bare(), "/text", "br, gzip");
    expect(text.headers.get("content-encoding")).toBeNull();
    const encoded = await get(bare(), "/encoded", "br, gzip");
    expect(encoded.headers.get("content-encoding")).toBe("gzip");
    expect([...new Uint8Array(await encoded.arrayBuffer())]).toEqual([1, 2, 3]);
  });
});

describe("compression in the app", () => {
  let distDir: string;
  const script = `export const rows = ${bigText};\n`;

  beforeAll(async () => {
    distDir = await mkdtemp(path.join(tmpdir(), "compress-dist-"));
    await mkdir(path.join(distDir, "assets"));
    await writeFile(path.join(distDir, "index.html"), "<html><head></head><body></body></html>");
    await writeFile(path.join(distDir, "assets", "big.js"), script);
    await precompress(distDir, () => false);
  });

  afterAll(async () => {
    await rm(distDir, { recursive: true, force: true });
  });

  const app = () =>
    createApp({
      config: loadConfig({ DIST_DIR: distDir }),
      database: {
        db: unused("db"),
        driver: "pglite",
        migrate: unused("migrate"),
        close: unused("close"),
      },
      logger: createLogger("silent"),
      version: "0.0.0-test",
      mailer: unused("mailer"),
      botCheck: unused("botCheck"),
      pool: unused("pool"),
    } as AppDeps);

  it("answers small API JSON uncompressed, with Vary", async () => {
    const res = await get(app(), "/api/config", "br, gzip");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-encoding")).toBeNull();
    expect(res.headers.get("vary")).toMatch(/Accept-Encoding/);
    expect(await res.json()).toMatchObject({ edition: "ht" });
  });

  it("does not compress precompressed static files again", async () => {
    const res = await get(app(), "/assets/big.js", "br, gzip");
    expect(res.headers.get("content-encoding")).toBe("br");
    expect(brotliDecompressSync(Buffer.from(await res.arrayBuffer())).toString()).toBe(script);
  });
});
