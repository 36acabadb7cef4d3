// @ts-check
import { readdirSync } from "node:fs";
import { defineConfig } from "eslint/config";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import lingui from "eslint-plugin-lingui";
import globals from "globals";

const features = readdirSync(new URL("./src/features", import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);

/** What no server module imports (rules of one name do not add up across blocks: shared here). */
const serverPatterns = [
  {
    regex: "^(\\.\\./)+(app|features|ui|client)/",
    message: "The server depends only on the contract and the engine.",
  },
  {
    regex: "^(\\./|(\\.\\./)+)app\\.ts$",
    message: "Only main.ts imports the app; its environment types are in app-env.ts (no circle).",
  },
];

export default defineConfig(
  {
    ignores: [
      "dist/**",
      ".dist-*/**",
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
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_" },
      ],
      "@typescript-eslint/consistent-type-imports": "error",
      "@typescript-eslint/no-explicit-any": "off",
      "no-empty": ["error", { allowEmptyCatch: true }],
    },
  },
  // Boundaries of the layout (STYLE.md): machines stay pure, the engine does no I/O, the contract
  // depends on nothing of the app, and features do not import each other.
  ...features.map((f) => ({
    files: [`src/features/${f}/**/*.{ts,tsx}`],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: `^\\.\\./(?!${f}/|\\.\\./)`,
              message: "Features do not import each other; move shared code to src/ui or src/app.",
            },
          ],
        },
      ],
    },
  })),
  {
    files: ["src/contract/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [{ regex: "^\\.\\./", message: "The contract depends on nothing of the app." }],
        },
      ],
    },
  },
  {
    files: ["src/ui/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "^(\\.\\./)+(?!contract/|ui/)[a-z-]+/",
              message: "Shared presentational components depend only on the contract.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["src/client/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "^(\\.\\./)+(?!contract/|client/)[a-z-]+/",
              message: "The HTTP client depends only on the contract.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["src/server/**/*.ts"],
    ignores: ["src/server/main.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: serverPatterns,
        },
      ],
    },
  },
  {
    files: ["src/server/analytics/**/*.ts"],
    ignores: ["src/server/analytics/worker.ts", "src/server/analytics/tasks.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            ...serverPatterns,
            {
              regex: "^\\./tasks\\.ts$",
              message:
                "The task table runs these modules: read task names from task-names.ts and the engine's outputs from engine-tasks.ts.",
            },
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
              regex: "^(\\.\\./)+src/(?!contract/)",
              message: "Machines depend only on the contract.",
            },
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
    files: ["src/engine/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            // Relative to src/engine/*.ts; files one folder deeper get the rule below.
            { regex: "^\\.\\./(?!contract/)", message: "The engine depends only on the contract." },
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
    files: ["src/engine/*/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "^(\\.\\./\\.\\./(?!contract/)|node:|ofetch|pg$|hono|react)",
              message: "The engine is pure computation over the contract.",
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
