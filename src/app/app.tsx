import { I18nProvider } from "@lingui/react";
import { useEffect, type ReactNode } from "react";
import { RouterProvider, type createBrowserRouter } from "react-router-dom";
import { AccessFactsProvider } from "./access-facts.tsx";
import { startConsent } from "./consent.ts";
import { i18n } from "./i18n.ts";
import { useServices, ServicesProvider, type AppServices } from "./services.tsx";
import { SessionAccessFacts } from "./session/session-facts.tsx";
import { RouteErrorBoundary, Shell } from "./shell.tsx";
import type { AccessFacts } from "../../machines/guards/access-facts.ts";
import type { Locale } from "../contract/common.ts";

/**
 * Everything every screen needs. Access facts come from the session machine; tests may give them
 * directly.
 */
export function AppProviders({
  services,
  facts,
  children,
}: {
  services: AppServices;
  facts?: AccessFacts;
  children: ReactNode;
}) {
  const body =
    facts || !services.session ? (
      <AccessFactsProvider facts={facts!}>{children}</AccessFactsProvider>
    ) : (
      <SessionAccessFacts session={services.session}>{children}</SessionAccessFacts>
    );
  return (
    <I18nProvider i18n={i18n}>
      <ServicesProvider services={services}>{body}</ServicesProvider>
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

export function App({
  services,
  router,
  initialLocale,
  onMounted,
}: {
  services: AppServices;
  router: ReturnType<typeof createBrowserRouter>;
  initialLocale: Locale;
  /** Called once the first screen is committed (hands over what was typed into the first page). */
  onMounted?: () => void;
}) {
  // The prerendered first page (docs/performance.md) is replaced by React's own on this commit;
  // what was typed into it meanwhile is handed over (src/app/first-page-input.ts).
  useEffect(() => {
    onMounted?.();
    document.documentElement.dataset.mounted = "true";
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return (
    <AppProviders services={services}>
      <ConsentBanner locale={initialLocale} />
      <RouterProvider router={router} />
    </AppProviders>
  );
}
