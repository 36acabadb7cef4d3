import { useSelector } from "@xstate/react";
import { useEffect, useMemo } from "react";
import type { OptimisePage } from "../../../machines/optimise.machine.ts";
import { useServices } from "../../app/services.tsx";
import { useWorkspace } from "../../app/use-workspace.ts";
import { useSession } from "../../app/session/use-session.ts";
import { useData } from "../../app/use-data.ts";
import { usePage } from "../../app/use-page.ts";
import { endpoints } from "../../contract/endpoints.ts";
import { optimiseActorFor, optimisePortfolioOf } from "./optimise-store.ts";
import { useCurrentPortfolio, usePermissions } from "./portfolio-views.ts";

export type OptimiseStep = OptimisePage;

/**
 * The optimisation as a screen sees it. The URL follows the machine: the screen tells it its page
 * is open (`page.opened`: a level's page opened directly chooses that level), and the machine takes
 * the person to its state's page, or to the portfolio once the result is adopted; the screen never
 * navigates. The portfolio's changes reach the machine, which restarts a running optimisation or
 * marks a result stale. (`_locale`: unused, the app knows the page's language.)
 */
export function useOptimise(step: OptimiseStep) {
  const { http, app, portfolios } = useServices();
  const { product, permissions } = usePermissions();
  const [client] = useSession((s) => s.context.client);
  const current = useCurrentPortfolio();
  const universe = useData(`optimise-universe:${product}`, () =>
    http.call(endpoints.marketAssets, { query: { product } }),
  );
  const names = useMemo(
    () => new Map((universe.data?.assets ?? []).map((a) => [a.symbol, a.name])),
    [universe.data],
  );
  const workspace = useWorkspace();
  const life = workspace.lifecycle?.getSnapshot().context;
  const maxAssetsLevel =
    life?.draft?.maxAssetsLevel ??
    life?.portfolio?.maxAssetsLevel ??
    workspace.wizard?.getSnapshot().context.answers.maxAssetsLevel ??
    null;
  const portfolio = current ? optimisePortfolioOf(current, names, maxAssetsLevel) : null;
  // The saved portfolio's id stays the same while it is being edited (an adoption edits it).
  const savedId = life?.portfolio?.id ?? null;
  const identity = `${client?.id ?? 0}:${product}:${savedId ?? "draft"}`;
  const actor =
    portfolio && app && client
      ? optimiseActorFor(
          identity,
          {
            portfolio,
            savedId,
            permissions,
            clientLevel: client.level,
            maxToLose95: current?.maxToLose95 ?? null,
          },
          { app, drafts: portfolios?.drafts ?? null },
        )
      : null;
  const snapshot = useSelector(actor ?? undefined, (s) => s);
  const key = portfolio?.key ?? null;
  useEffect(() => {
    if (actor && portfolio) actor.send({ type: "portfolio.change", portfolio });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the key names the composition
  }, [actor, key]);

  usePage(actor, step);
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
