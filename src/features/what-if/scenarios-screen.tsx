import { Plural, Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useId, useState } from "react";
import { Link } from "react-router-dom";
import {
  BACKTEST_IDS,
  REBALANCINGS,
  SCENARIO_WINDOWS,
  SHOCKS,
  allows,
  kindOf,
  type Rebalancing,
  type ShockKey,
  type WhatIfParameter,
} from "../../../machines/what-if.machine.ts";
import { pathFor } from "../../app/paths.ts";
import type { ScreenProps } from "../../app/route-table.ts";
import type { WhatIfKind } from "../../contract/analytics-rules.ts";
import type { Locale } from "../../contract/common.ts";
import { formatLongDate, formatMoney, formatNumber } from "../../ui/format.ts";
import { PageHeading } from "../../ui/page-heading.tsx";
import { PlanLock } from "../../app/plan-lock.tsx";
import { usePermissions } from "./from-portfolios.ts";
import { useWhatIf } from "./use-what-if.ts";
import { RunProgress, WhatIfProblemNote } from "./what-if-parts.tsx";
import {
  backtestNames,
  kindNames,
  permissionOf,
  rebalancingNames,
  scenarioNames,
  scenarioStories,
  shockHints,
  shockNames,
} from "./what-if-texts.ts";
import { TermLinks } from "../../app/term-link.tsx";
import "./what-if.css";
import { LockIcon } from "../../ui/lock-icon.tsx";

/** A number typed in the user's language: "-2,5" in Spanish, "-2.5" in English; null if empty. */
export function parseTyped(text: string, locale: Locale): number | null | "invalid" {
  let s = text.trim().replace(/\s/g, "").replace("−", "-");
  if (s === "") return null;
  if (locale === "es") s = s.includes(",") ? s.replaceAll(".", "").replace(",", ".") : s;
  else s = s.replaceAll(",", "");
  const n = Number(s);
  return /^[-+]?(\d+\.?\d*|\.\d+)$/.test(s) && Number.isFinite(n) ? n : "invalid";
}

function ShockInput({
  parameter,
  locale,
  disabled,
  onSet,
}: {
  parameter: WhatIfParameter;
  locale: Locale;
  disabled: boolean;
  onSet: (key: ShockKey, percentage: number | null, custom: boolean) => void;
}) {
  const { t, i18n } = useLingui();
  const id = useId();
  const key = parameter.titleKey;
  const spec = SHOCKS[key];
  const [draft, setDraft] = useState<string | null>(null);
  const [error, setError] = useState(false);
  const shown =
    parameter.percentage === null
      ? ""
      : formatNumber(parameter.percentage, locale, {
          maximumFractionDigits: 2,
          useGrouping: false,
        });
  const unit = spec.optionsType === "return" ? "%" : t`pp`;
  const name = i18n._(shockNames[key]);
  const min = formatNumber(spec.min, locale);
  const max = formatNumber(spec.max, locale);
  const sliderText = parameter.percentage === null ? t`Not shocked` : `${shown} ${unit}`;
  return (
    <div className={`shock-row${error ? " has-error" : ""}`} data-shock={key}>
      <label htmlFor={`${id}-n`} className="shock-label">
        {name} <span className="shock-unit">({unit})</span>
      </label>
      <p id={`${id}-hint`} className="field-hint">
        {i18n._(shockHints[key])}
      </p>
      <div className="shock-controls">
        <input
          type="range"
          aria-label={t`${name}, slider`}
          aria-describedby={`${id}-hint`}
          aria-valuetext={sliderText}
          min={spec.sliderMin}
          max={spec.sliderMax}
          step={spec.step}
          value={Math.min(spec.sliderMax, Math.max(spec.sliderMin, parameter.percentage ?? 0))}
          disabled={disabled}
          className={parameter.percentage === null ? "unset" : undefined}
          onChange={(e) => {
            setDraft(null);
            setError(false);
            onSet(key, Number(e.target.value), false);
          }}
        />
        <input
          id={`${id}-n`}
          type="text"
          inputMode="decimal"
          autoComplete="off"
          className="shock-number"
          aria-describedby={`${id}-hint${error ? ` ${id}-error` : ""}`}
          aria-invalid={error || undefined}
          value={draft ?? shown}
          disabled={disabled}
          onChange={(e) => {
            setDraft(e.target.value);
            const n = parseTyped(e.target.value, locale);
            const ok = n === null || (n !== "invalid" && n >= spec.min && n <= spec.max);
            setError(!ok);
            if (ok) onSet(key, n, true);
          }}
          onBlur={() => {
            if (!error) setDraft(null);
          }}
        />
        <span aria-hidden="true" className="shock-unit">
          {unit}
        </span>
      </div>
      {error ? (
        <p id={`${id}-error`} className="field-error">
          <Trans>
            Enter a number between {min} and {max}, or leave it empty.
          </Trans>
        </p>
      ) : null}
    </div>
  );
}

function Locked({ kind, locale }: { kind: WhatIfKind; locale: Locale }) {
  const { product } = usePermissions();
  return (
    <p className="what-if-lock" data-lock={kind}>
      <LockIcon /> <PlanLock product={product} permission={permissionOf(kind)} locale={locale} />
    </p>
  );
}

/** What-if scenarios: a backtest, a real scenario or the user's own shocks, run on the portfolio. */
export default function ScenariosScreen({ locale }: ScreenProps) {
  const { t, i18n } = useLingui();
  // A run started here ends on the assessment: the machine takes the person there.
  const { snapshot, send, current, permissions } = useWhatIf("scenarios");
  const c = snapshot.context;
  const kind = kindOf(c);
  const state = snapshot.value as string;
  const running = state === "running";
  const may = (k: WhatIfKind) => allows(permissions.whatIf, k);

  // A run started here ends on the assessment: its screen is fetched meanwhile.
  useEffect(() => {
    void import("./assessment-screen.tsx").catch(() => {});
  }, []);

  const total = current ? current.assets.reduce((s, a) => s + a.investedAmount, 0) : 0;
  const count = current?.assets.length ?? 0;
  const money = current ? formatMoney(total, current.currency, locale) : "";
  const portfolioName = current?.name ?? t`the portfolio you are building`;
  const kindName = i18n._(kindNames[kind]);
  const set = (key: ShockKey, percentage: number | null, custom: boolean) =>
    send({ type: "shock.set", key, percentage, custom });

  return (
    <div className="what-if">
      <PageHeading
        title={t`What-if scenarios`}
        summary={t`Shock the markets, replay real crises or backtest your portfolio.`}
      />
      {current ? (
        <p className="what-if-portfolio" data-testid="what-if-portfolio">
          <Trans>
            On {portfolioName}: <Plural value={count} one="# asset" other="# assets" />, {money}.
          </Trans>
        </p>
      ) : (
        <p className="form-message error" role="alert">
          <Trans>Build or open a portfolio first: the what-if runs on it.</Trans>{" "}
          <Link to={pathFor("account-portfolios", locale)}>
            <Trans>My portfolios</Trans>
          </Link>
        </p>
      )}

      <form
        className="what-if-form"
        aria-busy={running}
        onSubmit={(e) => {
          e.preventDefault();
          send({ type: "whatIf.run" });
        }}
      >
        <section className="card" aria-labelledby="what-if-backtest">
          <h2 id="what-if-backtest">
            <Trans>Backtest</Trans>
          </h2>
          <p className="figure-method">
            <Trans>
              How the portfolio, as it is today, would have done over a past window, against its
              market index.
            </Trans>
          </p>
          <TermLinks
            label={t`In the dictionary:`}
            terms={[
              ["backtesting", t`Backtesting`],
              ["buy-and-hold", t`Buy and hold`],
              ["rebalancing", t`Rebalancing`],
              ["maximum-drawdown", t`Maximum drawdown`],
              ["sharpe-ratio", t`Sharpe ratio`],
              ["benchmark", t`Benchmark`],
            ]}
          />
          {may("backtest") ? null : <Locked kind="backtest" locale={locale} />}
          <fieldset disabled={!may("backtest") || running}>
            <legend>
              <Trans>Window</Trans>
            </legend>
            <div className="choice-list">
              <label>
                <input
                  type="radio"
                  name="backtest"
                  checked={c.backTesting === null}
                  onChange={() => send({ type: "backtest.choose", backTesting: null })}
                />{" "}
                <Trans>No backtest</Trans>
              </label>
              {BACKTEST_IDS.map((id) => (
                <label key={id}>
                  <input
                    type="radio"
                    name="backtest"
                    checked={c.backTesting === id}
                    onChange={() => send({ type: "backtest.choose", backTesting: id })}
                  />{" "}
                  {i18n._(backtestNames[id]!)}
                </label>
              ))}
            </div>
            <div className="field">
              <label htmlFor="what-if-rebalancing">
                <Trans>Rebalancing</Trans>
              </label>
              <select
                id="what-if-rebalancing"
                value={c.rebalancing}
                onChange={(e) =>
                  send({
                    type: "rebalancing.choose",
                    rebalancing: e.target.value as Rebalancing,
                  })
                }
              >
                {REBALANCINGS.map((r) => (
                  <option key={r} value={r}>
                    {i18n._(rebalancingNames[r])}
                  </option>
                ))}
              </select>
            </div>
          </fieldset>
        </section>

        <section className="card" aria-labelledby="what-if-scenario">
          <h2 id="what-if-scenario">
            <Trans>Real scenario</Trans>
          </h2>
          <p className="figure-method">
            <Trans>
              Replays a past crisis, from the market's peak to its trough, on today's portfolio.
            </Trans>
          </p>
          <TermLinks
            label={t`In the dictionary:`}
            terms={[
              ["scenario-analysis", t`Scenario analysis`],
              ["stress-test", t`Stress test`],
              ["global-financial-crisis", t`Global financial crisis`],
              ["covid-19-crash", t`COVID-19 crash`],
            ]}
          />
          {may("scenario") ? null : <Locked kind="scenario" locale={locale} />}
          <fieldset disabled={!may("scenario") || running}>
            <legend>
              <Trans>Scenario</Trans>
            </legend>
            <div className="choice-list scenarios">
              <label>
                <input
                  type="radio"
                  name="scenario"
                  checked={c.scenarioType === null}
                  onChange={() => send({ type: "scenario.choose", scenarioType: null })}
                />{" "}
                <Trans>No real scenario</Trans>
              </label>
              {SCENARIO_WINDOWS.map((s) => {
                const start = formatLongDate(s.start, locale);
                const end = formatLongDate(s.end, locale);
                return (
                  <label key={s.type} className="scenario-choice">
                    <input
                      type="radio"
                      name="scenario"
                      checked={c.scenarioType === s.type}
                      onChange={() => send({ type: "scenario.choose", scenarioType: s.type })}
                    />{" "}
                    <span>
                      <strong>{i18n._(scenarioNames[s.type]!)}</strong>
                      <br />
                      <span className="scenario-story">
                        {i18n._(scenarioStories[s.type]!)}{" "}
                        <Trans>
                          From {start} to {end}.
                        </Trans>
                      </span>
                    </span>
                  </label>
                );
              })}
            </div>
          </fieldset>
        </section>

        <section className="card" aria-labelledby="what-if-shocks">
          <h2 id="what-if-shocks">
            <Trans>Your own shocks</Trans>
          </h2>
          <p className="figure-method">
            <Trans>
              Move one or more markets at once; each asset moves by its measured sensitivity to
              them. Leave a box empty to keep that market still.
            </Trans>
          </p>
          <TermLinks
            label={t`In the dictionary:`}
            terms={[
              ["factor-sensitivity", t`Factor sensitivity`],
              ["beta", t`Beta`],
              ["interest-rate-risk", t`Interest-rate risk`],
              ["inflation", t`Inflation`],
            ]}
          />
          {may("custom") ? null : <Locked kind="custom" locale={locale} />}
          <fieldset disabled={!may("custom") || running}>
            <legend className="visually-hidden">
              <Trans>Shocks</Trans>
            </legend>
            {c.parameters.map((p) => (
              <ShockInput
                key={p.titleKey}
                parameter={p}
                locale={locale}
                disabled={!may("custom") || running}
                onSet={set}
              />
            ))}
            <button
              type="button"
              className="link-button"
              onClick={() => send({ type: "shocks.clear" })}
            >
              <Trans>Clear the shocks</Trans>
            </button>
          </fieldset>
        </section>

        <p className="what-if-priority" role="status" data-testid="what-if-kind" data-kind={kind}>
          <Trans>This run: {kindName}.</Trans>{" "}
          <span className="figure-method">
            <Trans>
              A backtest, when one is chosen, comes first; then a real scenario; then your own
              shocks.
            </Trans>
          </span>
        </p>
        <WhatIfProblemNote
          context={c}
          state={state}
          locale={locale}
          onRetry={() => send({ type: "whatIf.retry" })}
        />
        {running ? (
          <RunProgress
            count={count}
            locale={locale}
            onCancel={() => send({ type: "whatIf.cancel" })}
          />
        ) : (
          <div className="actions-row">
            <button type="submit" className="button primary" disabled={!current}>
              <Trans>Run the what-if</Trans>
            </button>
            {c.result ? (
              <Link to={pathFor("what-if-assessment", locale)}>
                <Trans>See the last result</Trans>
              </Link>
            ) : null}
          </div>
        )}
      </form>
    </div>
  );
}
