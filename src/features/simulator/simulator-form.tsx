import { Trans, useLingui } from "@lingui/react/macro";
import { useId } from "react";
import {
  type SimulatorField,
  type SimulatorHolding,
  type SimulatorInputs,
} from "../../../machines/investment-simulator.machine.ts";
import { SIMULATION_ASSUMPTIONS, SIMULATION_LIMITS } from "../../contract/analytics.ts";
import type { Locale } from "../../contract/common.ts";
import { MoneyField, NumberField, TextField } from "../../ui/form.tsx";
import { formatNumber } from "../../ui/format.ts";
import { ProgressPanel } from "../../ui/progress-panel.tsx";
import {
  type Send,
  PATH_CHOICES,
  modeNames,
  modeHints,
  MODES,
  ASSUMPTIONS_ID,
} from "./simulator-texts.ts";

export function PortfolioSelect({
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

export function PathsSelect({
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

export function CustomAssets({
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
  const setRow = (i: number, row: Partial<SimulatorHolding>) =>
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
                value={row.investedAmount}
                locale={locale}
                onValueChange={(investedAmount) => setRow(i, { investedAmount })}
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
        onClick={() => change({ assets: [...rows, { symbol: "", investedAmount: 1000 }] })}
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
export function AssumptionsFields({
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

/** The run under way: what is being computed, for how long so far, and a way to stop it. */
export function Progress({
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
  const paths = formatNumber(request?.paths ?? SIMULATION_LIMITS.defaultPaths, locale);
  const months = formatNumber((request?.years ?? 0) * 12, locale);
  return (
    <ProgressPanel
      label={t`Simulating`}
      locale={locale}
      startedAt={startedAt}
      onCancel={() => send({ type: "simulation.cancel" })}
    >
      <Trans>
        Simulating {paths} paths over {months} months on the server…
      </Trans>
    </ProgressPanel>
  );
}
