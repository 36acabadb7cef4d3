import type { Locale } from "../contract/common.ts";
import { localeOfPath, pathFor, type RouteParams } from "./paths.ts";
import type { RouteId } from "./route-table.ts";

/** Where a machine sends the person: a route of the table (its key, not a URL) and its parameters. */
export interface RouteTarget {
  readonly route: RouteId;
  readonly params?: RouteParams;
}

/** Where the person is: the path and the query string of the page. */
export interface Place {
  readonly pathname: string;
  readonly search: string;
}

/**
 * The machines' navigation, provided once: `follow` for every machine that declares it (the
 * wizard, the lifecycle, the optimisation, the what-if) takes the person to the route's path in
 * the language of the page they are on; `pushSearch` (the education section over any page) keeps
 * the page and changes its query string. Both push a new history entry. The router is the one the
 * shell renders in (it binds its `navigate` when it mounts), so the same provision works in the
 * browser and in the route-level tests' memory routers.
 */
export class Navigation {
  private router: { navigate: (to: string | Place) => unknown; place: () => Place } | null = null;

  /** The shell's router; returns the unbinding. */
  bind(navigate: (to: string | Place) => unknown, place: () => Place): () => void {
    const router = { navigate, place };
    this.router = router;
    return () => {
      if (this.router === router) this.router = null;
    };
  }

  /** The locale of the page the person is on (the fallback: no router yet). */
  private locale(fallback: Locale): Locale {
    return (this.router && localeOfPath(this.router.place().pathname)) ?? fallback;
  }

  readonly follow = ({ route, params }: RouteTarget): void => {
    const router = this.router;
    if (!router) return;
    void router.navigate(pathFor(route, this.locale("en"), params));
  };

  /** The same page with the query string `write` makes of the current one. */
  readonly pushSearch = (write: (search: string) => string): void => {
    const router = this.router;
    if (!router) return;
    const { pathname, search } = router.place();
    void router.navigate({ pathname, search: write(search) });
  };
}
