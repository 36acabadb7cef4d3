import { useSelector } from "@xstate/react";
import { useEffect, useMemo } from "react";
import type { ActorRefFrom } from "xstate";
import { systemIds } from "../../../machines/system-ids.ts";
import {
  REBALANCINGS,
  SHOCK_KEYS,
  type Rebalancing,
  type ShockKey,
  type WhatIfInput,
  type whatIfMachine,
  type WhatIfPage,
  type WhatIfPortfolio,
} from "../../../machines/what-if.machine.ts";
import type { AppActor } from "../../app/app-actor.ts";
import type { DraftStore } from "../../app/drafts.ts";
import { usePage } from "../../app/use-page.ts";
import { useServices } from "../../app/services.tsx";
import { useSession } from "../../app/session/use-session.ts";
import { toHolding } from "../../contract/portfolios.ts";
import { useCurrentPortfolio, type CurrentPortfolio } from "./from-portfolios.ts";
import { usePermissions } from "./from-portfolios.ts";

export type WhatIfActor = ActorRefFrom<typeof whatIfMachine>;

/**
 * One what-if per signed-in client, shared by the scenarios and assessment routes (the result of a
 * run on one is read on the other): the app root's `whatIf` child (`systemIds.whatIf`). Signing
 * out stops and forgets it (specification section 4: sign-out clears the what-if state); another
 * client gets a new one. The inputs kept in this tab come back into a new one.
 */
function whatIfActorFor(
  app: AppActor,
  clientId: number,
  input: WhatIfInput,
  drafts: DraftStore | null,
): WhatIfActor {
  const root = app.getSnapshot();
  const held = root.children[systemIds.whatIf];
  if (held && root.context.whatIfClient === clientId) return held;
  app.send({ type: "whatIf.start", clientId, input });
  const actor = app.getSnapshot().children[systemIds.whatIf]!;
  keepInputs(actor, drafts);
  return actor;
}

/** The what-if's inputs as kept in the tab's drafts (a result is computed again). */
interface WhatIfDraft {
  readonly shocks: readonly { key: ShockKey; percentage: number; custom: boolean }[];
  readonly scenarioType: number | null;
  readonly backTesting: string | null;
  readonly rebalancing: Rebalancing;
}

const isWhatIfDraft = (value: unknown): value is WhatIfDraft =>
  typeof value === "object" &&
  value !== null &&
  Array.isArray((value as WhatIfDraft).shocks) &&
  (value as WhatIfDraft).shocks.every((s) => (SHOCK_KEYS as readonly string[]).includes(s.key)) &&
  REBALANCINGS.includes((value as WhatIfDraft).rebalancing);

/**
 * Brings back the inputs kept in this tab (a reload) through the machine's own events, then keeps
 * each change.
 */
function keepInputs(actor: WhatIfActor, drafts: DraftStore | null): void {
  if (!drafts) return;
  const stored = drafts.read("what-if");
  if (isWhatIfDraft(stored)) {
    for (const s of stored.shocks)
      actor.send({ type: "shock.set", key: s.key, percentage: s.percentage, custom: s.custom });
    actor.send({ type: "scenario.choose", scenarioType: stored.scenarioType });
    actor.send({ type: "backtest.choose", backTesting: stored.backTesting });
    actor.send({ type: "rebalancing.choose", rebalancing: stored.rebalancing });
  }
  actor.subscribe((s) => {
    if (s.status !== "active") return;
    const c = s.context;
    const draft: WhatIfDraft = {
      shocks: c.parameters.flatMap((p) =>
        p.percentage === null
          ? []
          : [{ key: p.titleKey, percentage: p.percentage, custom: p.customPercentage }],
      ),
      scenarioType: c.scenarioType,
      backTesting: c.backTesting,
      rebalancing: c.rebalancing,
    };
    drafts.write("what-if", draft);
  });
}

/** The what-if request's view of the portfolio being built or saved. */
export function whatIfPortfolioOf(current: CurrentPortfolio | null): WhatIfPortfolio | null {
  if (!current || current.assets.length === 0) return null;
  return {
    currency: current.currency,
    ...(current.benchmark ? { benchmark: current.benchmark } : {}),
    ...(current.benchmarkSeries ? { benchmarkSeries: current.benchmarkSeries } : {}),
    assets: current.assets.map(toHolding),
  };
}

/**
 * The what-if actor of the signed-in client, kept up to date with its portfolio and plan, and told
 * which of its pages is open, the scenarios or the assessment (a run started on the scenarios ends
 * on the assessment: the machine takes the person there; one started on the assessment stays).
 */
export function useWhatIf(page: WhatIfPage) {
  const { app, portfolios } = useServices();
  const [client] = useSession((s) => s.context.client);
  const { permissions } = usePermissions();
  const current = useCurrentPortfolio();
  const portfolio = whatIfPortfolioOf(current);
  const portfolioKey = JSON.stringify(portfolio);
  const clientId = client?.id ?? -1;
  if (!app) throw new Error("useWhatIf needs the app's root actor");
  const actor = useMemo(
    () =>
      whatIfActorFor(
        app,
        clientId,
        { permissions: permissions.whatIf, portfolio },
        portfolios?.drafts ?? null,
      ),
    // The actor is made once per client; the portfolio and plan follow through events below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [app, clientId],
  );
  useEffect(() => {
    actor.send({ type: "portfolio.changed", portfolio: JSON.parse(portfolioKey) });
  }, [actor, portfolioKey]);
  const permissionsKey = JSON.stringify(permissions.whatIf);
  useEffect(() => {
    actor.send({ type: "permissions.changed", permissions: JSON.parse(permissionsKey) });
  }, [actor, permissionsKey]);
  usePage(actor, page);
  const snapshot = useSelector(actor, (s) => s);
  return { snapshot, send: actor.send, current, permissions };
}
