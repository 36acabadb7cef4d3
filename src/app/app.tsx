import { I18nProvider } from "@lingui/react";
import { useEffect, useMemo, type ReactNode } from "react";
import { createBrowserRouter, RouterProvider } from "react-router-dom";
import { signedOutFacts } from "../../machines/guards/access-facts.ts";
import { AccessFactsProvider } from "./access-facts.tsx";
import { startConsent } from "./consent.ts";
import { i18n } from "./i18n.ts";
import { useServices, ServicesProvider, type AppServices } from "./services.tsx";
import { RouteErrorBoundary, Shell } from "./shell.tsx";
import type { Locale } from "../contract/common.ts";

/** Everything every screen needs, around the router. */
export function AppProviders({
  services,
  children,
}: {
  services: AppServices;
  children: ReactNode;
}) {
  const facts = useMemo(
    () => signedOutFacts(services.config.edition, services.product()),
    [services],
  );
  return (
    <I18nProvider i18n={i18n}>
      <ServicesProvider services={services}>
        <AccessFactsProvider facts={facts}>{children}</AccessFactsProvider>
      </ServicesProvider>
    </I18nProvider>
  );
}

export const appRoutes = [{ path: "*", element: <Shell />, errorElement: <RouteErrorBoundary /> }];

function ConsentBanner({ locale }: { locale: Locale }) {
  const { brand, config } = useServices();
  useEffect(() => {
    startConsent({ brand, locale, i18n, marketingScriptUrl: config.marketingScriptUrl }).catch(
      (error: unknown) => {
        console.error("cookie consent failed to start", error);
      },
    );
    // The banner starts once; language changes go through setConsentLanguage.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return null;
}

export function App({ services, initialLocale }: { services: AppServices; initialLocale: Locale }) {
  const router = useMemo(() => createBrowserRouter(appRoutes), []);
  return (
    <AppProviders services={services}>
      <ConsentBanner locale={initialLocale} />
      <RouterProvider router={router} />
    </AppProviders>
  );
}
