import { useLingui } from "@lingui/react/macro";
import {
  lazy,
  Suspense,
  useEffect,
  useState,
  type ComponentType,
  type LazyExoticComponent,
} from "react";
import { Navigate, useLocation } from "react-router-dom";
import { routeAccessMachine } from "../../machines/route-access.machine.ts";
import { PageHeading } from "../ui/page-heading.tsx";
import { Spinner } from "../ui/spinner.tsx";
import { useAccessFacts } from "./access-facts.tsx";
import { useAppMachine } from "./use-app-machine.ts";
import { ClientAccountLayout } from "./layouts/client-account-layout.tsx";
import { DefaultLayout } from "./layouts/default-layout.tsx";
import { EmptyCenterLayout } from "./layouts/empty-center-layout.tsx";
import { redirectHref } from "./redirect.ts";
import { loadPortfolioMachines } from "./portfolio-workspace.ts";
import { matchPath } from "./paths.ts";
import {
  marketFigureRoutes,
  routeById,
  routeTable,
  type RouteDefinition,
  type RouteId,
  type ScreenProps,
} from "./route-table.ts";
import { MarketClockNotice } from "./market-clock-notice.tsx";
import type { Unavailable } from "./unavailable-notice.tsx";

export type { ScreenProps };

/** Screens whose chunk has arrived, drawn without suspending. */
const loadedScreens = new Map<string, ComponentType<ScreenProps>>();
const loadScreen = (route: RouteDefinition, screen: NonNullable<RouteDefinition["screen"]>) =>
  Promise.all([screen(), route.portfolioMachines ? loadPortfolioMachines() : null]).then(
    ([module]) => {
      loadedScreens.set(route.id, module.default);
      return module;
    },
  );

/** One lazily loaded component per screen, made once: each screen is its own chunk. */
const screens = new Map<string, LazyExoticComponent<ComponentType<ScreenProps>>>(
  routeTable.flatMap((r: RouteDefinition) =>
    r.screen ? [[r.id, lazy(() => loadScreen(r, r.screen!))] as const] : [],
  ),
);

/**
 * Loads the screen of the page's route before the app's first render (the page preloads its
 * chunk): the app then draws it at once over the prerendered markup, not a spinner in between,
 * which would move everything below it. A failure is left to the lazy screen to report.
 */
export async function preloadScreen(pathname: string): Promise<void> {
  const route = pathname === "/" ? routeById("index") : matchPath(pathname)?.route;
  if (route?.screen) await loadScreen(route, route.screen).catch(() => {});
}

/** The route's screen once its guards allow it; otherwise a wait or a redirect, as the machine says. */
function GuardedScreen({ route, locale, params }: { route: RouteDefinition } & ScreenProps) {
  const facts = useAccessFacts();
  const location = useLocation();
  // Chosen once per mount (the route never changes within one), so the screen is never remounted.
  const [Screen] = useState(() => loadedScreens.get(route.id) ?? screens.get(route.id));
  const { t } = useLingui();
  const [snapshot, send] = useAppMachine(routeAccessMachine, {
    input: { guards: route.guards, facts },
  });
  useEffect(() => {
    if (snapshot.context.facts !== facts) send({ type: "facts.changed", facts });
  }, [facts, send, snapshot.context.facts]);

  if (snapshot.matches("waitingForSession")) return <Spinner label={t`Loading…`} />;
  if (snapshot.matches("redirecting") && snapshot.context.redirect) {
    const guard = snapshot.context.deniedBy;
    // The page needs a portfolio this tab does not have: the page redirected to says so.
    const unavailable: Unavailable | null =
      guard === "portfolio-creation" || guard === "portfolio-created"
        ? { route: route.id, guard }
        : null;
    return (
      <Navigate
        replace
        to={redirectHref(snapshot.context.redirect, locale, location.pathname + location.search)}
        {...(unavailable ? { state: { unavailable } } : {})}
      />
    );
  }
  if (!Screen) return <PageHeading title={t(route.title)} summary={t(route.summary)} />;
  return (
    <>
      {marketFigureRoutes.has(route.id as RouteId) ? <MarketClockNotice locale={locale} /> : null}
      <Suspense fallback={<Spinner label={t`Loading…`} />}>
        {/* Each screen component is made once, at module load; the state keeps that same one. */}
        <Screen locale={locale} params={params} />
      </Suspense>
    </>
  );
}

/** A route in its layout. */
export function RouteScreen({ route, locale, params }: { route: RouteDefinition } & ScreenProps) {
  const { t } = useLingui();
  const title = t(route.title);
  const content = <GuardedScreen route={route} locale={locale} params={params} />;
  switch (route.layout) {
    case "empty-center":
      return <EmptyCenterLayout title={title}>{content}</EmptyCenterLayout>;
    case "default-client-account":
      return (
        <ClientAccountLayout locale={locale} title={title}>
          {content}
        </ClientAccountLayout>
      );
    default:
      return (
        <DefaultLayout locale={locale} title={title}>
          {content}
        </DefaultLayout>
      );
  }
}
