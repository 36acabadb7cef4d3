import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { createHttpClient } from "../client/http.ts";
import { readRuntimeConfig } from "../client/runtime-config.ts";
import { defaultProduct } from "../contract/common.ts";
import { App } from "./app.tsx";
import { activateLocale } from "./i18n.ts";
import { cookieLocale, preferredLocale } from "./locale.ts";
import { localeOfPath } from "./paths.ts";
import { brandOf, type AppServices } from "./services.tsx";
import { startInspector } from "./inspector.ts";
import "../ui/styles.css";

const config = readRuntimeConfig();
const brand = brandOf(config);
document.documentElement.dataset.edition = config.edition;
const product = () => defaultProduct;

const services: AppServices = {
  config,
  brand,
  product,
  http: createHttpClient({
    baseURL: config.apiBase,
    edition: config.edition,
    locale: cookieLocale,
    product,
    token: () => null,
    onUnauthorized: () => {},
  }),
};

const initialLocale = localeOfPath(location.pathname) ?? preferredLocale();
void Promise.all([
  activateLocale(initialLocale),
  import.meta.env.DEV ? startInspector() : null,
]).then(() => {
  createRoot(document.getElementById("root")!).render(
    <StrictMode>
      <App services={services} initialLocale={initialLocale} />
    </StrictMode>,
  );
});
