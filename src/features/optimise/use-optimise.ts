import { useSelector } from "@xstate/react";
import { useEffect, useMemo, useRef } from "react";
import { useNavigate } from "react-router-dom";
import { pathFor } from "../../app/paths.ts";
import type { RouteId } from "../../app/route-table.ts";
import { useServices } from "../../app/services.tsx";
import { useSession } from "../../app/session/use-session.ts";
import { useData } from "../../app/use-data.ts";
import type { Locale } from "../../contract/common.ts";
import { endpoints } from "../../contract/endpoints.ts";
import {
  endOptimisation,
  optimiseActorFor,
  optimisePortfolioOf,
  rememberNames,
} from "./optimise-store.ts";
import { useCurrentPortfolio, usePermissions } from "./portfolio-views.ts";

export type OptimiseStep = "choose" | "o1" | "o2" | "o3" | "summary";

/** The route of each resting state of the optimise machine. */
function routeOf(value: unknown): RouteId | null {
  if (value === "choose") return "optimize-choose";
  if (value === "summary" || value === "stale" || value === "adopting") return "optimize-summary";
  if (value && typeof value === "object" && "options" in value)
    return `optimize-${(value as { options: "o1" | "o2" | "o3" }).options}`;
  return null;
}

/**
 * The optimisation as a screen sees it. The URL follows the machine (a new state navigates to its
 * route); a level's page opened directly chooses that level. The portfolio's changes reach the
 * machine, which restarts a running optimisation or marks a result stale.
 */
export function useOptimise(step: OptimiseStep, locale: Locale) {
  const { http, portfolios } = useServices();
  const { product, permissions } = usePermissions();
  const [client] = useSession((s) => s.context.client);
  const current = useCurrentPortfolio();
  const navigate = useNavigate();
  const universe = useData(`optimise-universe:${product}`, () =>
    http.call(endpoints.marketAssets, { query: { product } }),
  );
  const names = useMemo(
    () => new Map((universe.data?.assets ?? []).map((a) => [a.symbol, a.name])),
    [universe.data],
  );
  useEffect(() => rememberNames(names), [names]);
  const workspace = portfolios?.getState();
  const life = workspace?.lifecycle?.getSnapshot().context;
  const maxAssetsLevel =
    life?.draft?.maxAssetsLevel ??
    life?.portfolio?.maxAssetsLevel ??
    workspace?.wizard?.getSnapshot().context.answers.maxAssetsLevel ??
    null;
  const portfolio = current ? optimisePortfolioOf(current, names, maxAssetsLevel) : null;
  // The saved portfolio's id stays the same while it is being edited (an adoption edits it).
  const savedId = life?.portfolio?.id ?? null;
  const identity = `${client?.id ?? 0}:${product}:${savedId ?? "draft"}`;
  const actor =
    portfolio && portfolios && client
      ? optimiseActorFor(
          identity,
          {
            portfolio,
            permissions,
            clientLevel: client.level,
            maxToLose95: current?.maxToLose95 ?? null,
          },
          { http, workspace: portfolios },
        )
      : null;
  const snapshot = useSelector(actor ?? undefined, (s) => s);
  const key = portfolio?.key ?? null;
  useEffect(() => {
    if (actor && portfolio) actor.send({ type: "portfolio.change", portfolio });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the key names the composition
  }, [actor, key]);

  const value = snapshot?.value;
  const stateKey = JSON.stringify(value ?? null);
  const opened = useRef(true);
  useEffect(() => {
    if (!actor || !snapshot) return;
    const justOpened = opened.current;
    opened.current = false;
    if (snapshot.status === "done") {
      // Adopted: the portfolio shows the optimised amounts where it lives.
      const saved = savedId;
      endOptimisation();
      void navigate(
        saved !== null
          ? pathFor("account-portfolio", locale, { id: String(saved) })
          : pathFor("create-summary", locale),
      );
      return;
    }
    if (justOpened && step === "choose" && snapshot.matches("options")) {
      // The browser went back to the choice: the machine follows.
      actor.send({ type: "back" });
      return;
    }
    if (justOpened && step !== "choose" && step !== "summary" && snapshot.matches("choose")) {
      actor.send({ type: "level.choose", level: Number(step.slice(1)) as 1 | 2 | 3 });
      return;
    }
    const route = routeOf(snapshot.value);
    if (route && route !== `optimize-${step}` && !(justOpened && route === "optimize-choose"))
      // (A level's page opened on a locked level stays, and shows the lock.)
      void navigate(pathFor(route, locale));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only state changes move the page
  }, [stateKey, actor]);
  return {
    actor,
    snapshot,
    current,
    portfolio,
    product,
    permissions,
    names,
    universe,
    client,
    savedId,
  };
}
