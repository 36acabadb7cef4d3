import { useLingui } from "@lingui/react/macro";
import { useEffect, useLayoutEffect, useRef, useState } from "react";
import { useLocation, useNavigate, useRouteError } from "react-router-dom";
import type { Locale } from "../contract/common.ts";
import {
  browserReloadEnvironment,
  isChunkLoadError,
  reloadAfterChunkError,
} from "../client/chunk-reload.ts";
import { ErrorScreen, NotFoundScreen } from "./error-screen.tsx";
import { activateLocale, i18n } from "./i18n.ts";
import { localeOfPath, matchPath } from "./paths.ts";
import { preferredLocale, rememberLocale } from "./locale.ts";
import { setConsentLanguage } from "./consent.ts";
import { routeById } from "./route-table.ts";
import { RouteScreen } from "./route-screen.tsx";
import { VersionBanner } from "./version-banner.tsx";
import { PolicyGate } from "./session/policy-gate.tsx";
import { EducationMount } from "../features/education/education-mount.tsx";
import type { Place } from "./route-follow.ts";
import { useServices } from "./services.tsx";

/** Activates the language of the path; keeps showing the previous one until the new catalog is in. */
function useActiveLocale(locale: Locale): boolean {
  const [ready, setReady] = useState(i18n.locale === locale);
  useEffect(() => {
    let current = true;
    void activateLocale(locale).then(() => {
      if (!current) return;
      rememberLocale(locale);
      void setConsentLanguage(locale).catch(() => {});
      setReady(true);
    });
    return () => {
      current = false;
    };
  }, [locale]);
  return ready;
}

/** Errors nobody handled: a broken chunk reloads (at most once per 10 s per path), anything else is fatal. */
function useFatalError(): Error | null {
  const [fatal, setFatal] = useState<Error | null>(null);
  useEffect(() => {
    const handle = (error: unknown) => {
      if (
        isChunkLoadError(error) &&
        reloadAfterChunkError(location.pathname, browserReloadEnvironment())
      )
        return;
      setFatal(error instanceof Error ? error : new Error(String(error)));
    };
    const onRejection = (e: PromiseRejectionEvent) => handle(e.reason);
    const onError = (e: ErrorEvent) => handle(e.error ?? e.message);
    const onPreloadError = (e: Event) => {
      e.preventDefault();
      handle(
        (e as Event & { payload?: unknown }).payload ??
          new Error("Failed to fetch dynamically imported module"),
      );
    };
    window.addEventListener("unhandledrejection", onRejection);
    window.addEventListener("error", onError);
    window.addEventListener("vite:preloadError", onPreloadError);
    return () => {
      window.removeEventListener("unhandledrejection", onRejection);
      window.removeEventListener("error", onError);
      window.removeEventListener("vite:preloadError", onPreloadError);
    };
  }, []);
  return fatal;
}

/**
 * Binds the machines' navigation (src/app/route-follow.ts) to this router: bound before any
 * screen's effects run, so a page's first event may already move the person.
 */
function useMachineNavigation(place: Place) {
  const { navigation } = useServices();
  const navigate = useNavigate();
  const here = useRef(place);
  useLayoutEffect(() => {
    here.current = place;
  }, [place]);
  useLayoutEffect(
    () =>
      navigation.bind(
        (to) => navigate(to),
        () => here.current,
      ),
    [navigation, navigate],
  );
}

/** Renders whatever the URL names: a route of the table in its language, or the 404 screen. */
export function Shell() {
  const location = useLocation();
  useMachineNavigation(location);
  const match = matchPath(location.pathname);
  const isRoot = location.pathname === "/";
  const locale = match?.locale ?? localeOfPath(location.pathname) ?? preferredLocale();
  const ready = useActiveLocale(locale);
  const fatal = useFatalError();
  if (!ready) return null;
  if (fatal) return <FatalErrorScreen />;
  const route = isRoot ? routeById("index") : match?.route;
  return (
    <>
      <VersionBanner />
      {route ? (
        <PolicyGate locale={locale}>
          <RouteScreen
            key={`${route.id}:${locale}`}
            route={route}
            locale={locale}
            params={match?.params ?? {}}
          />
        </PolicyGate>
      ) : (
        <NotFoundScreen />
      )}
      <EducationMount locale={locale} />
    </>
  );
}

function FatalErrorScreen() {
  const { t } = useLingui();
  return <ErrorScreen statusCode={500} message={t`Something went wrong. Please try again.`} />;
}

/** The router's error element: render errors of any screen end here. */
export function RouteErrorBoundary() {
  const error = useRouteError();
  const [reloading] = useState(
    () =>
      isChunkLoadError(error) &&
      reloadAfterChunkError(location.pathname, browserReloadEnvironment()),
  );
  if (reloading) return null;
  const status =
    typeof error === "object" && error !== null && "status" in error ? Number(error.status) : 500;
  return status === 404 ? <NotFoundScreen /> : <FatalErrorScreen />;
}
