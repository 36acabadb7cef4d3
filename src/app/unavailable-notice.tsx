import { Trans, useLingui } from "@lingui/react/macro";
import { Link, useLocation } from "react-router-dom";
import type { Locale } from "../contract/common.ts";
import { pathFor } from "./paths.ts";
import { routesById } from "./route-table.ts";

/**
 * Why a page could not be shown, handed by the route guard that redirected (in the history entry's
 * state, not in the URL): the page needs a portfolio being created (portfolio-creation) or a
 * portfolio open (portfolio-created), and this tab has none.
 */
export interface Unavailable {
  readonly route: string;
  readonly guard: "portfolio-creation" | "portfolio-created";
}

export function unavailableOf(state: unknown): Unavailable | null {
  if (typeof state !== "object" || state === null || !("unavailable" in state)) return null;
  const u = (state as { unavailable: unknown }).unavailable as Partial<Unavailable> | null;
  if (!u || typeof u.route !== "string" || !routesById.has(u.route)) return null;
  if (u.guard !== "portfolio-creation" && u.guard !== "portfolio-created") return null;
  return { route: u.route, guard: u.guard };
}

/**
 * Says why the person is here instead of on the page they opened (a reload after the portfolio
 * was saved or cancelled, a link opened in a new tab), with a link to the start of the flow. Drawn
 * by q1 and my portfolios, where those guards send people.
 */
export function UnavailableNotice({ locale }: { locale: Locale }) {
  const { i18n } = useLingui();
  const unavailable = unavailableOf(useLocation().state);
  if (!unavailable) return null;
  const page = i18n._(routesById.get(unavailable.route)!.title);
  return (
    <div className="notice" role="status" data-testid="unavailable-notice">
      <p>
        {unavailable.guard === "portfolio-creation" ? (
          <Trans>
            “{page}” could not be shown: no portfolio is being created or edited in this tab. A
            portfolio in progress is kept only in the tab where it was started, until it is saved or
            cancelled.
          </Trans>
        ) : (
          <Trans>
            “{page}” could not be shown: it needs a portfolio, and none is open in this tab. Open
            one of your portfolios, or create a new one.
          </Trans>
        )}
      </p>
      <p className="actions-row">
        <Link to={pathFor("create-q1", locale)}>
          <Trans>Start a new portfolio</Trans>
        </Link>
        <Link to={pathFor("account-portfolios", locale)}>
          <Trans>Open one of my portfolios</Trans>
        </Link>
      </p>
    </div>
  );
}
