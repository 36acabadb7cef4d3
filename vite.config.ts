/// <reference types="vitest/config" />
import { randomBytes } from "node:crypto";
import { availableParallelism } from "node:os";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import babel from "@rolldown/plugin-babel";
import { lingui, linguiTransformerBabelPreset } from "@lingui/vite-plugin";
import react from "@vitejs/plugin-react";
import { createServer, defineConfig, type Plugin, type Rollup } from "vite";
import { precompress } from "./scripts/precompress.ts";
import type * as Prerender from "./scripts/prerender-shell.tsx";
import { loadConfig } from "./src/server/config.ts";
import { FIRST_PAGE_FILE, injectRuntimeConfig, type FirstPage } from "./src/server/spa.ts";

const buildId = `${new Date().toISOString().slice(0, 10).replaceAll("-", "")}-${randomBytes(4).toString("hex")}`;

/** Writes builds/latest.json, which running apps poll to offer a reload after a deploy. */
function buildManifest(): Plugin {
  return {
    name: "build-manifest",
    apply: "build",
    generateBundle() {
      this.emitFile({
        type: "asset",
        fileName: "builds/latest.json",
        source: JSON.stringify({ build: buildId, builtAt: new Date().toISOString() }) + "\n",
      });
    },
  };
}

/** Kept as a file: unsafe in a style element, or with relative URLs. */
const inlinable = (css: string) => !/<\/style/i.test(css) && !/url\(/i.test(css);

/**
 * Puts the entry's stylesheets (`files`, relative to outDir) into index.html: the first paint then
 * needs the page alone, not a second request (the files stay in assets for anything that links
 * them). Where the build linked one, the style takes the link's place; else it ends the head.
 */
async function inlineEntryStyles(outDir: string, base: string, files: ReadonlySet<string>) {
  const file = path.join(outDir, "index.html");
  let html = await readFile(file, "utf8");
  for (const name of files) {
    const css = await readFile(path.join(outDir, name), "utf8");
    const style = `<style>${css}</style>`;
    const link = html
      .match(/<link rel="stylesheet"[^>]*>/g)
      ?.find((l) => /href="([^"]+\.css)"/.exec(l)?.[1] === base + name);
    html = link
      ? html.replace(link, () => style)
      : html.replace("</head>", () => `  ${style}\n  </head>`);
  }
  await writeFile(file, html);
}

/**
 * The light first page (docs/performance.md): per route, the chunks and styles its lazy screen needs
 * beyond the entry's, per language the catalog's chunks, and the public screens prerendered per
 * edition and language; written to dist/first-page.json for the server to put into index.html. Then
 * every text asset is precompressed.
 */
function firstPage(): Plugin {
  let root = process.cwd();
  let outDir = "dist";
  let base = "/";
  /** Absolute module path of a dynamic entry → the files it needs that the entry does not load. */
  const lazyChunks = new Map<string, { js: string[]; css: string[] }>();
  /** The entry's stylesheets that index.html carries inline. */
  const inlined = new Set<string>();
  return {
    name: "first-page",
    apply: "build",
    configResolved(config) {
      root = config.root;
      outDir = path.resolve(config.root, config.build.outDir);
      base = config.base;
    },
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter(
        (o): o is Rollup.OutputChunk => o.type === "chunk",
      );
      const byFile = new Map(chunks.map((c) => [c.fileName, c]));
      const closure = (file: string, seen = new Set<string>()): Set<string> => {
        if (seen.has(file)) return seen;
        seen.add(file);
        for (const i of byFile.get(file)?.imports ?? []) closure(i, seen);
        return seen;
      };
      const initial = new Set(
        chunks.filter((c) => c.isEntry).flatMap((c) => [...closure(c.fileName)]),
      );
      // Lazy chunks that import from the entry list its stylesheets among the files they need, and
      // the preload helper, which looks for <link>s only, would fetch the inlined ones again: they
      // are taken out of the entry's metadata here (this runs before Vite writes the lists).
      inlined.clear();
      for (const entry of chunks.filter((c) => c.isEntry)) {
        const importedCss = entry.viteMetadata?.importedCss;
        for (const css of [...(importedCss ?? [])]) {
          const asset = bundle[css];
          if (asset?.type !== "asset" || !inlinable(String(asset.source))) continue;
          inlined.add(css);
          importedCss?.delete(css);
        }
      }
      for (const c of chunks) {
        if (!c.isDynamicEntry || !c.facadeModuleId) continue;
        const files = [...closure(c.fileName)].filter((f) => !initial.has(f));
        lazyChunks.set(c.facadeModuleId.split("?")[0]!, {
          js: files.map((f) => base + f),
          css: files
            .flatMap((f) => [...(byFile.get(f)?.viteMetadata?.importedCss ?? [])])
            .map((f) => base + f),
        });
      }
    },
    async closeBundle() {
      if (lazyChunks.size === 0) return; // the build failed before writing anything
      const server = await createServer({
        configFile: path.join(root, "vite.config.ts"),
        root,
        logLevel: "warn",
        appType: "custom",
        server: { middlewareMode: true, hmr: false, ws: false },
        optimizeDeps: { noDiscovery: true, include: [] },
      });
      let firstPage: FirstPage;
      try {
        const prerender = (await server.ssrLoadModule(
          "/scripts/prerender-shell.tsx",
        )) as typeof Prerender;
        const chunksOf = (specifier: string | null) => {
          if (!specifier) return { js: [], css: [] };
          const file = specifier.startsWith("/")
            ? path.join(root, specifier)
            : path.resolve(root, "src/app", specifier);
          return lazyChunks.get(file) ?? { js: [], css: [] };
        };
        const catalog = (locale: string) => chunksOf(`/locales/${locale}/messages.po`).js;
        firstPage = {
          routes: prerender
            .routeInfos()
            .map((r) => ({ id: r.id, paths: r.paths, ...chunksOf(r.screen) })),
          catalogs: { en: catalog("en"), es: catalog("es") },
          shells: await prerender.prerenderShells(["ht", "tt"]),
          consent: await prerender.prerenderConsentBanners(["ht", "tt"]),
        };
      } finally {
        await server.close();
      }
      await writeFile(path.join(outDir, FIRST_PAGE_FILE), JSON.stringify(firstPage));
      await inlineEntryStyles(outDir, base, inlined);
      await precompress(outDir, (f) => f === "index.html" || f === FIRST_PAGE_FILE);
    },
  };
}

/** In development the page gets the same runtime configuration the server would embed. */
function devRuntimeConfig(): Plugin {
  return {
    name: "dev-runtime-config",
    apply: "serve",
    transformIndexHtml: (html) => injectRuntimeConfig(html, { config: loadConfig() }),
  };
}

const apiPort = process.env.API_PORT ?? "3001";

/** The tests of pure modules (see `test.projects`). */
const pureTests = ["tests/{engine,machines,contract,content}/**/*.test.{ts,tsx}"];

export default defineConfig({
  plugins: [
    react(),
    lingui(),
    babel({ presets: [linguiTransformerBabelPreset()] }),
    buildManifest(),
    devRuntimeConfig(),
    firstPage(),
  ],
  define: { __BUILD_ID__: JSON.stringify(buildId) },
  server: { proxy: { "/api": `http://127.0.0.1:${apiPort}` } },
  build: {
    sourcemap: true,
    chunkSizeWarningLimit: 600,
  },
  test: {
    environment: "node",
    setupFiles: ["tests/setup.ts"],
    globalSetup: ["tests/global-setup.ts"],
    // One worker more than the cores: most server tests wait on a database or a worker thread
    // (on 2 cores: 489 s with 2 workers, 388 s with 3, 411 s with 4; docs/decisions.md).
    maxWorkers: availableParallelism() + 1,
    testTimeout: 20_000,
    hookTimeout: 60_000,
    // Pure modules' tests (engine, machines, contract, content: no module mocks, no globals
    // stubbed, no DOM) share their workers instead of paying a fresh one per file (about 1.2 s
    // each on 2 cores); the app's and the server's keep one per file, as their mocks and
    // module state need.
    projects: [
      {
        extends: true,
        test: { name: "pure", include: pureTests, isolate: false },
      },
      {
        extends: true,
        test: {
          name: "app and server",
          include: ["tests/**/*.test.{ts,tsx}"],
          exclude: ["tests/e2e/**", ...pureTests],
        },
      },
    ],
  },
});
