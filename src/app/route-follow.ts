import type { Locale } from "../contract/common.ts";
import { localeOfPath, pathFor, type RouteParams } from "./paths.ts";
import type { RouteId } from "./route-table.ts";

/** Where a machine sends the person: a route of the table (its key, not a URL) and its parameters. */
export interface RouteTarget {
  readonly route: RouteId;
  readonly params?: RouteParams;
}

/**
 * The machines' `follow` action, provided once for every machine that declares it (the wizard,
 * the lifecycle, the optimisation, the what-if): the route's path in the language of the page the
 * person is on, pushed as a new history entry. The router is the one the shell renders in (it
 * binds its `navigate` when it mounts), so the same provision works in the browser and in the
 * route-level tests' memory routers.
 */
export class Navigation {
  private router: { navigate: (to: string) => unknown; pathname: () => string } | null = null;

  /** The shell's router; returns the unbinding. */
  bind(navigate: (to: string) => unknown, pathname: () => string): () => void {
    const router = { navigate, pathname };
    this.router = router;
    return () => {
      if (this.router === router) this.router = null;
    };
  }

  /** The locale of the page the person is on (the fallback: no router yet). */
  private locale(fallback: Locale): Locale {
    return (this.router && localeOfPath(this.router.pathname())) ?? fallback;
  }

  readonly follow = ({ route, params }: RouteTarget): void => {
    const router = this.router;
    if (!router) return;
    void router.navigate(pathFor(route, this.locale("en"), params));
  };
}
