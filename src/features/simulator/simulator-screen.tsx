import { seriesName } from "../../ui/series-names.ts";
import { msg } from "@lingui/core/macro";
import type { MessageDescriptor } from "@lingui/core";
import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useId, useState, type FormEvent } from "react";
import {
  assetsHoldableIn,
  simulatorIssues,
  type SimulatorField,
  type SimulatorInputs,
  type SimulatorIssue,
} from "../../../machines/investment-simulator.machine.ts";
import { useMarketToday } from "../../app/market-clock-notice.tsx";
import type { ScreenProps } from "../../app/route-table.ts";
import {
  SIMULATION_ASSUMPTIONS,
  SIMULATION_LIMITS,
  type SimulateResponse,
  type SimulationCaution,
  type SimulationMode,
} from "../../contract/analytics.ts";
import type { Locale } from "../../contract/common.ts";
import { CheckboxField, FormMessage, MoneyField, NumberField, TextField } from "../../ui/form.tsx";
import { formatDate, formatMoney, formatNumber, formatPercent } from "../../ui/format.ts";
import { msgCodeText } from "../../ui/msg-code-text.ts";
import { PageHeading } from "../../ui/page-heading.tsx";
import { Spinner } from "../../ui/spinner.tsx";
import { HindsightCaution } from "../../app/hindsight-caution.tsx";
import { FanChart } from "./fan-chart.tsx";
import { useSimulator } from "./use-simulator.ts";
import { TermLinks } from "../../app/term-link.tsx";
import "./simulator.css";

type Send = ReturnType<typeof useSimulator>[1];

const issueText: Record<SimulatorIssue, MessageDescriptor> = {
  required: msg`Required.`,
  range: msg`Out of the allowed range.`,
  integer: msg`A whole number, please.`,
  nothingInvested: msg`Put in an initial amount or a monthly contribution above 0.`,
  noAssets: msg`Add at least one asset.`,
  duplicateAsset: msg`Each asset only once.`,
  tooManyAssets: msg`At most 500 assets.`,
};

const PATH_CHOICES = [1_000, 10_000, 50_000] as const;

/** The three assumptions of PRODUCT.md "Simulator assumptions", as a person reads them. */
const modeNames: Record<SimulationMode, MessageDescriptor> = {
  equilibrium: msg`Equilibrium (CAPM)`,
  historical: msg`Historical (block bootstrap)`,
  own: msg`My own`,
};
const modeHints: Record<SimulationMode, MessageDescriptor> = {
  equilibrium: msg`The portfolio's expected return from the CAPM and its volatility over its longest common history. The default.`,
  historical: msg`Each year a block of 12 consecutive months drawn at random from the portfolio's own past, with no drift added.`,
  own: msg`The expected annual return and volatility you type.`,
};
const MODES = ["equilibrium", "historical", "own"] as const;

/** The id of the assumptions' fieldset: the printed assumptions link to it to edit them. */
const ASSUMPTIONS_ID = "simulator-assumptions";

/** The investment simulator (PRODUCT.md "Markets and the investment simulator"). */
export default function SimulatorScreen({ locale }: ScreenProps) {
  const { t, i18n } = useLingui();
  const [snapshot, send] = useSimulator(null);
  const c = snapshot.context;
  const [tried, setTried] = useState(false);
  const marketToday = useMarketToday()?.today ?? null;
  const portfolios = c.sources?.portfolios ?? [];
  const issues = simulatorIssues(c.inputs, portfolios);
  const issue = (field: SimulatorField) => {
    const i = issues[field];
    return tried && i ? i18n._(issueText[i]) : null;
  };

  if (snapshot.matches("loading")) return <Spinner label={t`Loading…`} />;
  if (snapshot.matches("loadFailed"))
    return (
      <>
        <PageHeading title={t`Investment simulator`} />
        <FormMessage kind="error">{c.error ? i18n._(msgCodeText[c.error]) : null}</FormMessage>
        <button type="button" className="button secondary" onClick={() => send({ type: "retry" })}>
          <Trans>Try again</Trans>
        </button>
      </>
    );

  const change = (inputs: Partial<SimulatorInputs>) => send({ type: "inputs.change", inputs });
  const choosing = snapshot.matches("choosingSource");
  const simulating = snapshot.matches("simulating");
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    if (choosing) send({ type: "source.choose", source: c.inputs.source });
    else send({ type: "simulate" });
  };
  const currency =
    c.inputs.source === "saved"
      ? (portfolios.find((p) => p.id === c.inputs.portfolioId)?.currency ?? c.inputs.currency)
      : c.inputs.currency;

  return (
    <>
      <PageHeading
        title={t`Investment simulator`}
        summary={t`Where a plan of an initial amount and monthly contributions can end up: thousands of possible paths of your portfolio, beside what the same plan did in the past.`}
      />
      <form className="simulator-form" onSubmit={submit} noValidate>
        <fieldset disabled={simulating}>
          <legend>
            <Trans>What to simulate</Trans>
          </legend>
          <div className="field checkbox">
            <input
              id="simulator-source-saved"
              type="radio"
              name="source"
              checked={c.inputs.source === "saved"}
              disabled={portfolios.length === 0}
              onChange={() =>
                choosing
                  ? change({ source: "saved" })
                  : send({ type: "source.choose", source: "saved" })
              }
            />
            <label htmlFor="simulator-source-saved">
              <Trans>One of my saved portfolios</Trans>
            </label>
          </div>
          <div className="field checkbox">
            <input
              id="simulator-source-custom"
              type="radio"
              name="source"
              checked={c.inputs.source === "custom"}
              onChange={() =>
                choosing
                  ? change({ source: "custom" })
                  : send({ type: "source.choose", source: "custom" })
              }
            />
            <label htmlFor="simulator-source-custom">
              <Trans>Assets and amounts I choose now</Trans>
            </label>
          </div>
          {portfolios.length === 0 ? (
            <p className="field-hint">
              <Trans>You have no saved portfolio yet: choose the assets here.</Trans>
            </p>
          ) : null}
          {c.inputs.source === "saved" && portfolios.length > 0 ? (
            <PortfolioSelect
              value={c.inputs.portfolioId}
              options={portfolios.map((p) => ({ id: p.id, name: p.name }))}
              error={issue("portfolio")}
              onChange={(portfolioId) =>
                choosing
                  ? change({ portfolioId })
                  : send({ type: "source.choose", source: "saved", portfolioId })
              }
            />
          ) : null}
          {c.inputs.source === "custom" && !choosing ? (
            <CustomAssets
              inputs={c.inputs}
              assets={assetsHoldableIn(c.sources?.assets ?? [], c.inputs.currency)}
              change={change}
              error={issue("assets")}
              locale={locale}
            />
          ) : null}
          {choosing ? (
            <button type="submit" className="button primary">
              <Trans>Continue</Trans>
            </button>
          ) : null}
        </fieldset>

        {choosing ? null : (
          <fieldset disabled={simulating}>
            <legend>
              <Trans>The plan</Trans>
            </legend>
            <div className="simulator-grid">
              <MoneyField
                label={t`Initial amount (${currency})`}
                name="initialAmount"
                value={c.inputs.initialAmount}
                locale={locale}
                error={issue("initialAmount")}
                onValueChange={(initialAmount) => change({ initialAmount })}
              />
              <MoneyField
                label={t`Monthly contribution (${currency})`}
                name="monthlyContribution"
                value={c.inputs.monthlyContribution}
                locale={locale}
                error={issue("monthlyContribution")}
                hint={t`Made at the end of every month.`}
                onValueChange={(monthlyContribution) => change({ monthlyContribution })}
              />
              <NumberField
                label={t`Horizon (years)`}
                name="years"
                inputMode="numeric"
                value={c.inputs.years}
                locale={locale}
                error={issue("years")}
                hint={t`From 1 to 40 years.`}
                onValueChange={(years) => change({ years })}
              />
              <MoneyField
                label={t`Goal at the horizon (${currency}, optional)`}
                name="goal"
                value={c.inputs.goal}
                locale={locale}
                error={issue("goal")}
                onValueChange={(goal) => change({ goal })}
              />
            </div>
            <CheckboxField
              label={t`Adjust for inflation (figures in today's money)`}
              checked={c.inputs.inflation}
              onChange={(e) => change({ inflation: e.target.checked })}
            />
            <div className="simulator-grid">
              <PathsSelect
                value={c.inputs.paths}
                locale={locale}
                onChange={(paths) => change({ paths })}
              />
            </div>
            <AssumptionsFields inputs={c.inputs} change={change} issue={issue} locale={locale} />
            <div className="simulator-actions">
              <button type="submit" className="button primary">
                {c.result ? <Trans>Simulate again</Trans> : <Trans>Simulate</Trans>}
              </button>
              <button
                type="button"
                className="button secondary"
                onClick={() => send({ type: "source.change" })}
              >
                <Trans>Change what to simulate</Trans>
              </button>
            </div>
          </fieldset>
        )}
      </form>

      {simulating ? (
        <Progress startedAt={c.startedAt} request={c.request} locale={locale} send={send} />
      ) : null}
      {c.cancelled && !simulating ? (
        <FormMessage kind="success">
          <Trans>Simulation cancelled.</Trans>
        </FormMessage>
      ) : null}
      {snapshot.matches("failed") ? (
        <>
          <FormMessage kind="error">{c.error ? i18n._(msgCodeText[c.error]) : null}</FormMessage>
          <button
            type="button"
            className="button secondary"
            onClick={() => send({ type: "retry" })}
          >
            <Trans>Try again</Trans>
          </button>
        </>
      ) : null}
      {c.result ? (
        <SimulationResult
          result={c.result}
          stale={c.stale}
          locale={locale}
          marketToday={marketToday}
        />
      ) : null}
    </>
  );
}

function PortfolioSelect({
  value,
  options,
  error,
  onChange,
}: {
  value: number | null;
  options: readonly { id: number; name: string }[];
  error: string | null;
  onChange: (id: number) => void;
}) {
  const id = useId();
  return (
    <div className={error ? "field has-error" : "field"}>
      <label htmlFor={id}>
        <Trans>Portfolio</Trans>
      </label>
      <select id={id} value={value ?? ""} onChange={(e) => onChange(Number(e.target.value))}>
        {options.map((o) => (
          <option key={o.id} value={o.id}>
            {o.name}
          </option>
        ))}
      </select>
      {error ? <div className="field-error">{error}</div> : null}
    </div>
  );
}

function PathsSelect({
  value,
  locale,
  onChange,
}: {
  value: number;
  locale: Locale;
  onChange: (paths: number) => void;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>
        <Trans>Number of paths</Trans>
      </label>
      <select id={id} value={value} onChange={(e) => onChange(Number(e.target.value))}>
        {PATH_CHOICES.map((n) => (
          <option key={n} value={n}>
            {formatNumber(n, locale)}
          </option>
        ))}
      </select>
    </div>
  );
}

function CustomAssets({
  inputs,
  assets,
  change,
  error,
  locale,
}: {
  inputs: SimulatorInputs;
  assets: readonly { symbol: string; name: string; currency: string }[];
  change: (inputs: Partial<SimulatorInputs>) => void;
  error: string | null;
  locale: Locale;
}) {
  const { t } = useLingui();
  const listId = useId();
  const currencyId = useId();
  const rows = inputs.assets;
  const setRow = (i: number, row: Partial<{ symbol: string; amount: number | null }>) =>
    change({ assets: rows.map((r, k) => (k === i ? { ...r, ...row } : r)) });
  return (
    <div className={error ? "has-error" : undefined}>
      <div className="field">
        <label htmlFor={currencyId}>
          <Trans>Currency of the portfolio</Trans>
        </label>
        <select
          id={currencyId}
          value={inputs.currency}
          onChange={(e) => change({ currency: e.target.value === "USD" ? "USD" : "EUR" })}
        >
          <option value="EUR">EUR</option>
          <option value="USD">USD</option>
        </select>
      </div>
      <datalist id={listId}>
        {assets.map((a) => (
          <option key={a.symbol} value={a.symbol}>
            {`${a.name} (${a.currency})`}
          </option>
        ))}
      </datalist>
      <ul className="simulator-assets">
        {rows.map((row, i) => {
          const n = i + 1;
          return (
            <li key={i}>
              <TextField
                label={t`Asset ${n} (symbol)`}
                list={listId}
                autoComplete="off"
                value={row.symbol}
                onChange={(e) => setRow(i, { symbol: e.target.value.trim().toUpperCase() })}
              />
              <MoneyField
                label={t`Amount of asset ${n}`}
                value={row.amount}
                locale={locale}
                onValueChange={(amount) => setRow(i, { amount })}
              />
              <button
                type="button"
                className="button secondary"
                onClick={() => change({ assets: rows.filter((_, k) => k !== i) })}
              >
                <Trans>Remove asset {n}</Trans>
              </button>
            </li>
          );
        })}
      </ul>
      <button
        type="button"
        className="button secondary"
        onClick={() => change({ assets: [...rows, { symbol: "", amount: 1000 }] })}
      >
        <Trans>Add an asset</Trans>
      </button>
      <p className="field-hint">
        <Trans>The amounts set the mix of the portfolio; the plan below sets the money.</Trans>
      </p>
      {error ? <div className="field-error">{error}</div> : null}
    </div>
  );
}

/** The assumptions the paths are drawn with: the mode, and my own figures when chosen. */
function AssumptionsFields({
  inputs,
  change,
  issue,
  locale,
}: {
  inputs: SimulatorInputs;
  change: (inputs: Partial<SimulatorInputs>) => void;
  issue: (field: SimulatorField) => string | null;
  locale: Locale;
}) {
  const { t, i18n } = useLingui();
  const A = SIMULATION_ASSUMPTIONS;
  const pct = (v: number) => formatNumber(v * 100, locale);
  const [minReturn, maxReturn] = [pct(A.minOwnReturn), pct(A.maxOwnReturn)];
  const [minVolatility, maxVolatility] = [pct(A.minOwnVolatility), pct(A.maxOwnVolatility)];
  return (
    <fieldset id={ASSUMPTIONS_ID} className="simulator-assumptions" tabIndex={-1}>
      <legend>
        <Trans>Assumptions</Trans>
      </legend>
      {MODES.map((mode) => (
        <div className="field checkbox" key={mode}>
          <input
            id={`simulator-mode-${mode}`}
            type="radio"
            name="simulator-mode"
            checked={inputs.mode === mode}
            aria-describedby={`simulator-mode-${mode}-hint`}
            onChange={() => change({ mode })}
          />
          <label htmlFor={`simulator-mode-${mode}`}>{i18n._(modeNames[mode])}</label>
          <p className="field-hint" id={`simulator-mode-${mode}-hint`}>
            {i18n._(modeHints[mode])}
          </p>
        </div>
      ))}
      {inputs.mode === "own" ? (
        <div className="simulator-grid">
          <NumberField
            label={t`Expected annual return (%)`}
            value={inputs.ownReturn}
            locale={locale}
            error={issue("ownReturn")}
            hint={t`From ${minReturn} to ${maxReturn}.`}
            onValueChange={(ownReturn) => change({ ownReturn })}
          />
          <NumberField
            label={t`Annual volatility (%)`}
            value={inputs.ownVolatility}
            locale={locale}
            error={issue("ownVolatility")}
            hint={t`From ${minVolatility} to ${maxVolatility}.`}
            onValueChange={(ownVolatility) => change({ ownVolatility })}
          />
        </div>
      ) : null}
    </fieldset>
  );
}

/**
 * The assumptions the figures below follow from, printed above the chart (PRODUCT.md "Simulator
 * assumptions"): the mode, the annual return and volatility, the history they rest on, how they
 * were obtained, and the cautions.
 */
export function PrintedAssumptions({
  result,
  locale,
}: {
  result: SimulateResponse;
  locale: Locale;
}) {
  const { t, i18n } = useLingui();
  const a = result.assumptions;
  const mode = i18n._(modeNames[a.mode]);
  const annualReturn = formatPercent(a.annualReturn, locale, 1);
  const volatility = formatPercent(a.annualVolatility, locale, 1);
  const history = a.history;
  const historyFrom = history ? formatDate(history.from, locale) : "";
  const historyTo = history ? formatDate(history.to, locale) : "";
  const historyYears = history
    ? formatNumber(history.years, locale, { maximumFractionDigits: 1 })
    : "";
  const years = formatNumber(result.months / 12, locale);
  const bound = formatPercent(SIMULATION_ASSUMPTIONS.returnCaution, locale, 0);
  const capm = a.capm;
  const riskFree = capm ? formatPercent(capm.riskFreeRate, locale, 1) : "";
  const premium = capm ? formatPercent(capm.equityRiskPremium, locale, 1) : "";
  const beta = capm ? formatNumber(capm.beta, locale, { maximumFractionDigits: 2 }) : "";
  const market = capm?.market ? seriesName(i18n, capm.market) : "";
  const betaFrom = capm ? formatDate(capm.from, locale) : "";
  const betaTo = capm ? formatDate(capm.to, locale) : "";
  const betaDays = capm ? formatNumber(capm.observations, locale) : "";
  const blocks = a.blocks !== null ? formatNumber(a.blocks, locale) : "";
  const cautionText: Record<SimulationCaution, string> = {
    "horizon-beyond-history": i18n._(
      msg`Caution: the horizon (${years} years) is longer than the history these assumptions rest on (${historyYears} years). Nothing in that history shows how such a portfolio behaves over the remaining years.`,
    ),
    "return-above-bound": i18n._(
      msg`Caution: an assumed annual return of ${annualReturn} is above ${bound}. The long-run return of world equities has been about 5 to 7 % a year above inflation; returns like this one rarely last for decades.`,
    ),
  };
  return (
    <section
      className="simulator-assumptions-printed"
      aria-labelledby="simulator-assumptions-title"
    >
      <h3 id="simulator-assumptions-title">
        <Trans>Assumptions of these figures</Trans>
      </h3>
      <TermLinks
        label={t`In the dictionary:`}
        terms={[
          ["capm", t`CAPM`],
          ["beta", t`Beta`],
          ["risk-free-rate", t`Risk-free rate`],
          ["equity-risk-premium", t`Equity risk premium`],
          ["expected-return", t`Expected return`],
          ["annualised-volatility", t`Annualised volatility`],
          ["ledoit-wolf-shrinkage", t`Ledoit-Wolf shrinkage`],
          ["lognormal-distribution", t`Lognormal distribution`],
          ["volatility-drag", t`Volatility drag`],
        ]}
      />
      <dl className="simulator-figures">
        <div>
          <dt>
            <Trans>Assumptions</Trans>
          </dt>
          <dd data-figure="mode">{mode}</dd>
        </div>
        <div>
          <dt>
            <Trans>Expected annual return</Trans>
          </dt>
          <dd data-figure="annual-return">{annualReturn}</dd>
        </div>
        <div>
          <dt>
            <Trans>Volatility (a year)</Trans>
          </dt>
          <dd data-figure="annual-volatility">{volatility}</dd>
        </div>
        <div>
          <dt>
            <Trans>History they rest on</Trans>
          </dt>
          <dd data-figure="history">
            {history ? (
              <Trans>
                {historyFrom} to {historyTo} ({historyYears} years)
              </Trans>
            ) : (
              <Trans>None: typed by you</Trans>
            )}
          </dd>
        </div>
      </dl>
      <p data-figure="assumptions-source">
        {a.mode === "equilibrium" && capm ? (
          capm.market ? (
            <Trans>
              Expected return = risk-free rate {riskFree} + beta {beta} × equity premium {premium},
              the beta measured against the {market} from {betaFrom} to {betaTo} ({betaDays} days).
              Volatility from the shrunk (Ledoit-Wolf) covariance of the assets over their longest
              common history.
            </Trans>
          ) : (
            <Trans>
              Expected return = risk-free rate {riskFree} + beta {beta} × equity premium {premium},
              the beta measured against the portfolio&apos;s assets equally weighted (no market
              index data) from {betaFrom} to {betaTo} ({betaDays} days). Volatility from the shrunk
              (Ledoit-Wolf) covariance of the assets over their longest common history.
            </Trans>
          )
        ) : a.mode === "historical" ? (
          <Trans>
            The return and volatility of one year drawn from the {blocks} blocks of 12 consecutive
            months of the history, as the paths draw them; no drift is added.
          </Trans>
        ) : (
          <Trans>The expected annual return and the volatility you typed.</Trans>
        )}{" "}
        <a href={`#${ASSUMPTIONS_ID}`}>
          <Trans>Change the assumptions</Trans>
        </a>
      </p>
      {a.cautions.map((caution) => (
        <p key={caution} className="simulator-caution" role="note" data-caution={caution}>
          {cautionText[caution]}
        </p>
      ))}
    </section>
  );
}

/** The run under way: what is being computed, for how long so far, and a way to stop it. */
function Progress({
  startedAt,
  request,
  locale,
  send,
}: {
  startedAt: number | null;
  request: { paths?: number | undefined; years: number } | null;
  locale: Locale;
  send: Send;
}) {
  const { t } = useLingui();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(timer);
  }, []);
  const seconds = formatNumber(Math.max(0, (now - (startedAt ?? now)) / 1000), locale, {
    maximumFractionDigits: 0,
  });
  const paths = formatNumber(request?.paths ?? SIMULATION_LIMITS.defaultPaths, locale);
  const months = formatNumber((request?.years ?? 0) * 12, locale);
  return (
    <div className="simulator-progress" role="status">
      <progress aria-label={t`Simulating`} />
      <span>
        <Trans>
          Simulating {paths} paths over {months} months on the server… {seconds} s
        </Trans>
      </span>
      <button type="button" className="button secondary" onClick={() => send({ type: "cancel" })}>
        <Trans>Cancel</Trans>
      </button>
    </div>
  );
}

/**
 * The answer of a run. `marketToday`: the market day the assets stand chosen on (the simulator runs
 * on today's holdings, like a what-if); until it is known, the historical path's last day stands in
 * for it (the market's today is never earlier), so the hindsight caution never waits.
 */
export function SimulationResult({
  result,
  stale,
  locale,
  marketToday = null,
}: {
  result: SimulateResponse;
  stale: boolean;
  locale: Locale;
  marketToday?: string | null;
}) {
  const { t, i18n } = useLingui();
  const money = (v: number) => formatMoney(v, result.currency, locale);
  const currency = result.currency;
  const compact = (v: number) =>
    formatNumber(v, locale, {
      style: "currency",
      currency: result.currency,
      notation: "compact",
      maximumFractionDigits: 1,
    });
  const p = (percentile: number) =>
    result.percentiles.find((q) => q.percentile === percentile)?.values ?? [];
  const [p5, p25, p50, p75, p95] = [p(5), p(25), p(50), p(75), p(95)];
  const m = result.months;
  const years = m / 12;
  const h = result.historical;
  const w = result.window;
  const paths = formatNumber(result.paths, locale);
  const mean = formatPercent(result.monthlyLogMean, locale, 2);
  const volatility = formatPercent(result.monthlyLogVolatility, locale, 2);
  const modeName = i18n._(modeNames[result.assumptions.mode]);
  const blocks = formatNumber(result.assumptions.blocks ?? 0, locale);
  const goal = result.goal;
  const goalAmount = goal ? money(goal.amount) : "";
  const historyMonths = h.months;
  const historyFrom = h.months > 0 && h.from ? formatDate(h.from, locale) : null;
  const historyTo = h.months > 0 && h.to ? formatDate(h.to, locale) : null;
  const inflation = result.inflation
    ? {
        rate: formatPercent(result.inflation.annualRate, locale, 2),
        series: seriesName(i18n, result.inflation.series),
        from: formatDate(result.inflation.from, locale),
        to: formatDate(result.inflation.to, locale),
      }
    : null;
  const { rate: inflationRate, series: inflationSeries } = inflation ?? { rate: "", series: "" };
  const { from: inflationFrom, to: inflationTo } = inflation ?? { from: "", to: "" };
  const rows: number[] = [];
  for (let k = 0; k <= m; k += 12) rows.push(k);
  return (
    <section
      className={stale ? "simulator-result is-stale" : "simulator-result"}
      aria-labelledby="simulator-result-title"
    >
      <h2 id="simulator-result-title">
        <Trans>Where the plan can end up in {years} years</Trans>
      </h2>
      <TermLinks
        label={t`In the dictionary:`}
        terms={[
          ["monte-carlo-simulation", t`Monte Carlo simulation`],
          ["fan-chart", t`Fan chart`],
          ["percentile", t`Percentile`],
          ["geometric-brownian-motion", t`Geometric Brownian motion`],
          ["goal-probability", t`Goal probability`],
          ["real-return", t`Real return`],
        ]}
      />
      {stale ? (
        <FormMessage kind="error">
          <Trans>
            The inputs changed: these figures are for the previous inputs. Simulate again to update
            them.
          </Trans>
        </FormMessage>
      ) : null}
      {w.simulated ? (
        <p>
          <span className="badge">
            <Trans>Simulated prices</Trans>
          </span>
        </p>
      ) : null}
      <PrintedAssumptions result={result} locale={locale} />
      <dl className="simulator-figures">
        <div>
          <dt>
            <Trans>Median at the horizon</Trans>
          </dt>
          <dd data-figure="median">{money(p50[m] ?? 0)}</dd>
        </div>
        <div>
          <dt>
            <Trans>9 in 10 paths end between</Trans>
          </dt>
          <dd data-figure="range">
            {money(p5[m] ?? 0)} – {money(p95[m] ?? 0)}
          </dd>
        </div>
        <div>
          <dt>
            <Trans>Money put in</Trans>
          </dt>
          <dd data-figure="invested">{money(result.invested[m] ?? 0)}</dd>
        </div>
        {goal ? (
          <div>
            <dt>
              <Trans>Chance of reaching {goalAmount}</Trans>
            </dt>
            <dd data-figure="goal-probability">{formatPercent(goal.probability, locale, 1)}</dd>
          </div>
        ) : null}
        {h.months > 0 ? (
          <div>
            <dt>
              <Trans>The same plan over the last {historyMonths} months</Trans>
            </dt>
            <dd data-figure="historical">{money(h.values[h.months] ?? 0)}</dd>
          </div>
        ) : null}
      </dl>
      <FanChart
        title={t`Value of the plan month by month: percentiles of ${paths} simulated paths`}
        description={t`Bands from the 5th to the 95th and from the 25th to the 75th percentile, the median, the money put in and the historical path. The table below gives the figures year by year.`}
        p5={p5}
        p25={p25}
        p50={p50}
        p75={p75}
        p95={p95}
        invested={result.invested}
        historical={h.values}
        goal={goal?.amount ?? null}
        labels={{
          outer: t`5th to 95th percentile`,
          inner: t`25th to 75th percentile`,
          median: t`Median`,
          invested: t`Money put in`,
          historical: t`Historical path`,
          goal: t`Goal`,
          xTitle: t`Years from today`,
          yTitle: t`Value of the plan (${currency})`,
          yTitleLog: t`Value of the plan (${currency}, log scale)`,
        }}
        formatValue={compact}
        formatYear={(y) => t`${y} y`}
      />
      <p data-figure="method">
        {result.method === "block-bootstrap" ? (
          <Trans>
            Method: Monte Carlo, {paths} paths with the {modeName} assumptions: each year of a path
            is a block of 12 consecutive monthly returns of the portfolio drawn at random, with
            replacement, from its {blocks} blocks; months of 21 trading days.
          </Trans>
        ) : (
          <Trans>
            Method: Monte Carlo, {paths} paths of lognormal monthly growth (geometric Brownian
            motion) with the {modeName} assumptions: a monthly log mean of {mean} and a monthly
            volatility of {volatility}, so that a year&apos;s expected growth is the expected annual
            return above.
          </Trans>
        )}
      </p>
      {historyFrom && historyTo ? (
        <p>
          <Trans>
            Historical path: the same contributions invested over the portfolio&apos;s own last{" "}
            {historyMonths} months, {historyFrom} to {historyTo}.
          </Trans>
        </p>
      ) : null}
      {h.months > 0 && h.from && h.to ? (
        // The historical path is a backtest of today's assets over a past they were chosen after.
        <HindsightCaution
          kind="backtest"
          windowStart={h.from}
          chosenOn={marketToday ?? h.to}
          locale={locale}
        />
      ) : null}
      {inflation ? (
        <p data-figure="inflation">
          <Trans>
            In today&apos;s money: every figure is deflated by {inflationRate} a year, the average
            inflation of {inflationSeries} from {inflationFrom} to {inflationTo}.
          </Trans>
        </p>
      ) : null}
      <details>
        <summary>
          <Trans>The figures year by year (table)</Trans>
        </summary>
        <div
          className="simulator-table-wrap"
          tabIndex={0}
          role="region"
          aria-label={t`The figures year by year`}
        >
          <table className="simulator-table">
            <thead>
              <tr>
                <th scope="col">
                  <Trans>Year</Trans>
                </th>
                <th scope="col">
                  <Trans>Money put in</Trans>
                </th>
                <th scope="col">5%</th>
                <th scope="col">25%</th>
                <th scope="col">
                  <Trans>Median</Trans>
                </th>
                <th scope="col">75%</th>
                <th scope="col">95%</th>
                <th scope="col">
                  <Trans>Historical</Trans>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((k) => (
                <tr key={k}>
                  <th scope="row">{formatNumber(k / 12, locale)}</th>
                  <td>{money(result.invested[k] ?? 0)}</td>
                  <td>{money(p5[k] ?? 0)}</td>
                  <td>{money(p25[k] ?? 0)}</td>
                  <td>{money(p50[k] ?? 0)}</td>
                  <td>{money(p75[k] ?? 0)}</td>
                  <td>{money(p95[k] ?? 0)}</td>
                  <td>{k <= h.months ? money(h.values[k] ?? 0) : "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </section>
  );
}
