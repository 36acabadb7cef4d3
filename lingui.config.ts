import { defineConfig } from "@lingui/conf";
import { formatter } from "@lingui/format-po";

export default defineConfig({
  sourceLocale: "en",
  locales: ["en", "es"],
  fallbackLocales: false,
  catalogs: [
    {
      path: "<rootDir>/locales/{locale}/messages",
      include: ["src"],
      exclude: ["**/node_modules/**", "src/server/**", "src/engine/**"],
    },
  ],
  format: formatter({ lineNumbers: false }),
});
