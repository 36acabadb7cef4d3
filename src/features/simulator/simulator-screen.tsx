import { Trans, useLingui } from "@lingui/react/macro";
import { useState, type FormEvent } from "react";
import {
  assetsHoldableIn,
  simulatorIssues,
  type SimulatorField,
  type SimulatorInputs,
} from "../../../machines/investment-simulator.machine.ts";
import { useMarketToday } from "../../app/market-clock-notice.tsx";
import type { ScreenProps } from "../../app/route-table.ts";
import { CheckboxField, FormMessage, MoneyField, NumberField } from "../../ui/form.tsx";
import { msgCodeText } from "../../ui/msg-code-text.ts";
import { PageHeading } from "../../ui/page-heading.tsx";
import { Spinner } from "../../ui/spinner.tsx";
import { useSimulator } from "./use-simulator.ts";
import "./simulator.css";
import { issueText } from "./simulator-texts.ts";
import {
  AssumptionsFields,
  CustomAssets,
  PathsSelect,
  PortfolioSelect,
  Progress,
} from "./simulator-form.tsx";
import { SimulationResult } from "./simulator-result.tsx";

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
        <button
          type="button"
          className="button secondary"
          onClick={() => send({ type: "failure.retry" })}
        >
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
    else send({ type: "simulation.run" });
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
            onClick={() => send({ type: "failure.retry" })}
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
