import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useRef, useState } from "react";
import { fromPromise } from "xstate";
import { liveRiskMachine, type LiveRiskInput } from "../../../machines/live-risk.machine.ts";
import { PlanLock } from "../../app/plan-lock.tsx";
import { usePermissions } from "./use-wizard.ts";
import { useServices } from "../../app/services.tsx";
import { orFailure } from "../../app/session/session-actor.ts";
import { useAppMachine } from "../../app/use-app-machine.ts";
import type { AnalysisResponse } from "../../contract/analytics.ts";
import type { Locale } from "../../contract/common.ts";
import { endpoints } from "../../contract/endpoints.ts";
import { toHolding } from "../../contract/portfolios.ts";
import { formatMoney, formatPercent } from "../../ui/format.ts";
import { msgCodeText } from "../../ui/msg-code-text.ts";
import { LockIcon } from "../../ui/lock-icon.tsx";

export interface LiveRiskProps {
  readonly currency: "EUR" | "USD";
  readonly benchmark?: 1 | 2 | 3 | 4 | 5 | 6;
  readonly assets: readonly { readonly id: string; readonly investedAmount: number }[];
  readonly locale: Locale;
  /** Called with each new analysis (the screens reuse it). */
  readonly onAnalysis?: (a: AnalysisResponse) => void;
}

/**
 * The risk of the portfolio as it is being edited: the loss at 95% over a month and the annual
 * volatility, with the change the last edit made. Its workflow (wait for a pause, ask once, cancel
 * a stale answer) is the live-risk machine's; this renders it.
 */
export function LiveRisk({ currency, benchmark, assets, locale, onAnalysis }: LiveRiskProps) {
  const { t, i18n } = useLingui();
  const { http } = useServices();
  const { product } = usePermissions();
  const report = useRef(onAnalysis);
  useEffect(() => {
    report.current = onAnalysis;
  });
  // The action runs after render (on the machine's answer) and reads the callback of that moment.
  // eslint-disable-next-line react-hooks/refs
  const [machine] = useState(() =>
    liveRiskMachine.provide({
      actors: {
        measure: fromPromise<AnalysisResponse, LiveRiskInput>(({ input, signal }) =>
          orFailure(() =>
            http.call(endpoints.analyse, {
              body: {
                currency: input.currency,
                ...(input.benchmark ? { benchmark: input.benchmark } : {}),
                assets: input.assets.map(toHolding),
              },
              signal,
            }),
          ),
        ),
      },
      actions: { "analysis.report": (_, analysis) => report.current?.(analysis) },
    }),
  );
  const [snapshot, send] = useAppMachine(machine);
  // The form tells the machine of each change of its holdings (the key names every input).
  const key = JSON.stringify([currency, benchmark, assets]);
  useEffect(() => {
    send({
      type: "holdings.change",
      input: { currency, ...(benchmark ? { benchmark } : {}), assets },
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the key names every input
  }, [key]);

  const { current, previous, error, input } = snapshot.context;
  const busy = snapshot.matches("measuring");
  const measuring = input !== null && !error;
  const money = (v: number) => formatMoney(v, currency, locale);
  const varNow = current?.var?.historical.varAmount ?? null;
  const varBefore = previous?.var?.historical.varAmount ?? null;
  const delta = varNow !== null && varBefore !== null ? varNow - varBefore : null;
  const deltaText = delta !== null ? money(Math.abs(delta)) : "";
  return (
    <section className="live-risk" aria-labelledby="live-risk-title" aria-busy={busy}>
      <h2 id="live-risk-title" className="visually-hidden">
        {t`Risk of this portfolio`}
      </h2>
      {error ? (
        <p role="alert" className="negative">
          {i18n._(msgCodeText[error])}
        </p>
      ) : null}
      {current ? (
        <>
          <span>
            {t`Risk: loss at 95% over one month (historical VaR):`}{" "}
            {current.var ? (
              <strong data-testid="live-var">{money(current.var.historical.varAmount)}</strong>
            ) : (
              <span data-testid="live-var-locked">
                <LockIcon />{" "}
                <PlanLock product={product} permission="analysis.var" locale={locale} />
              </span>
            )}
          </span>
          <span>
            {t`Volatility, annualised (daily × √252):`}{" "}
            <strong data-testid="live-volatility">
              {formatPercent(current.volatility.annual, locale)}
            </strong>
          </span>
          <span aria-live="polite" data-testid="live-delta">
            {delta !== null && Math.abs(delta) >= 0.005 ? (
              delta > 0 ? (
                <span className="delta-up">
                  <Trans>Your last change raised it by {deltaText}.</Trans>
                </span>
              ) : (
                <span className="delta-down">
                  <Trans>Your last change lowered it by {deltaText}.</Trans>
                </span>
              )
            ) : null}
          </span>
        </>
      ) : (
        // Drawn from the start (also during the debounce), so that the panel keeps its height
        // when the figures arrive and nothing around it moves under a pointer.
        <span className="muted">{measuring ? t`Measuring the risk…` : "\u00a0"}</span>
      )}
    </section>
  );
}
