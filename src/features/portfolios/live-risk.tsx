import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useRef, useState } from "react";
import { PlanLock } from "../../app/plan-lock.tsx";
import { usePermissions } from "./use-wizard.ts";
import { useServices } from "../../app/services.tsx";
import { ApiCallError } from "../../client/http.ts";
import type { AnalysisResponse } from "../../contract/analytics.ts";
import type { Locale } from "../../contract/common.ts";
import { endpoints } from "../../contract/endpoints.ts";
import type { MsgCode } from "../../contract/msg-codes.ts";
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

/** Waits this long after the last change before asking for the risk again. */
const DEBOUNCE_MS = 350;

/**
 * The risk of the portfolio as it is being edited: the loss at 95% over a month and the annual
 * volatility, with the change the last edit made. Stale answers are cancelled.
 */
export function LiveRisk({ currency, benchmark, assets, locale, onAnalysis }: LiveRiskProps) {
  const { t, i18n } = useLingui();
  const { http } = useServices();
  const { product } = usePermissions();
  const [{ current, previous }, setResults] = useState<{
    current: AnalysisResponse | null;
    previous: AnalysisResponse | null;
  }>({ current: null, previous: null });
  const [error, setError] = useState<MsgCode | null>(null);
  const [busy, setBusy] = useState(false);
  const kept = assets.filter((a) => a.investedAmount > 0);
  const key = JSON.stringify([currency, benchmark, kept]);
  const report = useRef(onAnalysis);
  useEffect(() => {
    report.current = onAnalysis;
  });

  useEffect(() => {
    if (kept.length === 0) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      setBusy(true);
      http
        .call(endpoints.analyse, {
          body: {
            currency,
            ...(benchmark ? { benchmark } : {}),
            assets: kept.map((a) => ({ symbol: a.id, amount: a.investedAmount })),
          },
          signal: controller.signal,
        })
        .then((a) => {
          setResults((r) => ({ previous: r.current, current: a }));
          setError(null);
          report.current?.(a);
        })
        .catch((e: unknown) => {
          if (controller.signal.aborted) return;
          const f = e instanceof ApiCallError ? e.failure : null;
          setError(f?.kind === "http" ? f.msgCode : "NETWORK_ERROR");
        })
        .finally(() => {
          if (!controller.signal.aborted) setBusy(false);
        });
    }, DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the key names every input
  }, [key]);

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
        <span className="muted">
          {kept.length > 0 && !error ? t`Measuring the risk…` : "\u00a0"}
        </span>
      )}
    </section>
  );
}
