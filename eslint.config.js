// @ts-check
import { readdirSync } from "node:fs";
import { defineConfig } from "eslint/config";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import lingui from "eslint-plugin-lingui";
import importX from "eslint-plugin-import-x";
import globals from "globals";

const features = readdirSync(new URL("./src/features", import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);

export default defineConfig(
  {
    ignores: [
      "dist/**",
      "data/**",
      "node_modules/**",
      "locales/**",
      "docs/**",
      "test-results/**",
      "playwright-report/**",
      "src/server/db/migrations/**",
    ],
  },
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { "import-x": importX },
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_" },
      ],
      "@typescript-eslint/consistent-type-imports": "error",
      "@typescript-eslint/no-explicit-any": "off",
      "no-empty": ["error", { allowEmptyCatch: true }],
      // Boundaries of the layout (STYLE.md): machines stay pure, the engine does no I/O,
      // features do not import each other.
      "import-x/no-restricted-paths": [
        "error",
        {
          zones: [
            {
              target: "./machines",
              from: "./src",
              except: ["./contract"],
              message: "Machines depend only on the contract.",
            },
            {
              target: "./src/engine",
              from: "./src",
              except: ["./engine", "./contract"],
              message: "The engine is pure.",
            },
            {
              target: "./src/contract",
              from: "./src",
              except: ["./contract"],
              message: "The contract depends on nothing of the app.",
            },
            ...features.map((f) => ({
              target: `./src/features/${f}`,
              from: "./src/features",
              except: [`./${f}`],
              message: "Features do not import each other; move shared code to src/ui or src/app.",
            })),
          ],
        },
      ],
    },
  },
  {
    files: ["machines/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["react", "react-*", "react/*", "@xstate/react", "react-router*"],
              message: "Machines import no React or router.",
            },
            {
              group: ["ofetch", "hono", "hono/*", "pg", "@electric-sql/*", "drizzle-orm*"],
              message: "Machines do no I/O: declare an abstract actor.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["src/engine/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: [
                "node:*",
                "fs",
                "path",
                "ofetch",
                "pg",
                "@electric-sql/*",
                "drizzle-orm*",
                "hono*",
                "react*",
              ],
              message: "The engine is pure computation: no I/O.",
            },
          ],
        },
      ],
      "no-restricted-globals": [
        "error",
        "fetch",
        "XMLHttpRequest",
        "localStorage",
        "sessionStorage",
        "document",
        "window",
      ],
    },
  },
  {
    files: ["src/**/*.tsx", "src/app/**/*.ts", "src/features/**/*.ts", "src/ui/**/*.ts"],
    plugins: { "react-hooks": reactHooks, lingui },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...lingui.configs["flat/recommended"].rules,
      "lingui/no-unlocalized-strings": [
        "error",
        {
          ignore: ["^(?![A-Z])\\S+$", "^[A-Z0-9_-]+$", "^[^a-zA-Z]*$"],
          ignoreNames: [
            {
              regex: {
                pattern:
                  "className|Class|Name$|^aria-(?!label)|Id$|^id$|[Uu]rl|[Hh]ref|^to$|^type$|^key$|^rel$|^lang$|^hrefLang$|^role$|^name$|^layout$|^position$|^sameSite$|^method$|^driver$|^edition$|^viewBox$|^d$|^fill$|^stroke",
                flags: "",
              },
            },
          ],
          ignoreFunctions: [
            "console.*",
            "Error",
            "*.Error",
            "URL",
            "URLSearchParams",
            "new URLSearchParams",
            "*.set",
            "*.get",
            "*.has",
            "*.header",
            "matches",
            "*.matches",
            "send",
            "querySelector*",
            "*.dataset.*",
            "addEventListener",
            "removeEventListener",
            "writeCookie",
            "readCookie",
            "removeCookie",
            "pathFor",
            "routeById",
            "import",
          ],
        },
      ],
    },
  },
  {
    files: ["tests/**", "scripts/**", "*.config.ts", "*.config.js"],
    rules: { "lingui/no-unlocalized-strings": "off" },
  },
);
