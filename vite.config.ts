/// <reference types="vitest/config" />
import { randomBytes } from "node:crypto";
import babel from "@rolldown/plugin-babel";
import { lingui, linguiTransformerBabelPreset } from "@lingui/vite-plugin";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";
import { loadConfig } from "./src/server/config.ts";
import { injectRuntimeConfig } from "./src/server/spa.ts";

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

/** In development the page gets the same runtime configuration the server would embed. */
function devRuntimeConfig(): Plugin {
  return {
    name: "dev-runtime-config",
    apply: "serve",
    transformIndexHtml: (html) => injectRuntimeConfig(html, { config: loadConfig() }),
  };
}

const apiPort = process.env.API_PORT ?? "3001";

export default defineConfig({
  plugins: [
    react(),
    lingui(),
    babel({ presets: [linguiTransformerBabelPreset()] }),
    buildManifest(),
    devRuntimeConfig(),
  ],
  define: { __BUILD_ID__: JSON.stringify(buildId) },
  server: { proxy: { "/api": `http://127.0.0.1:${apiPort}` } },
  build: { sourcemap: true, chunkSizeWarningLimit: 600 },
  test: {
    include: ["tests/**/*.test.{ts,tsx}"],
    exclude: ["tests/e2e/**"],
    environment: "node",
    setupFiles: ["tests/setup.ts"],
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
