import { Trans, useLingui } from "@lingui/react/macro";
import { useId, useState, type FormEvent } from "react";
import {
  DEFAULT_KEEP_WEIGHT,
  universeOf,
  type OptimisationLevel,
} from "../../../machines/optimise.machine.ts";
import type { ScreenProps } from "../../app/route-table.ts";
import { minimumMaxToLose95 } from "../../contract/optimisation-rules.ts";
import { MoneyField } from "../../ui/form.tsx";
import { formatMoney, formatNumber } from "../../ui/format.ts";
import { Spinner } from "../../ui/spinner.tsx";
import { LevelChoice, levelTexts } from "./choose-screen.tsx";
import { OptimisePage, Outcome, Running } from "./parts.tsx";
import { violationText } from "./texts.ts";
import { useOptimise } from "./use-optimise.ts";
import { TermLinks } from "../../app/term-link.tsx";

const parse = (text: string): number | null => {
  const v = Number(text.replace(",", "."));
  return text.trim() === "" || !Number.isFinite(v) ? null : v;
};

/** The rules about the maximum loss at 95%: their reasons are shown at its field. */
const MAX_LOSS_RULES: readonly string[] = ["MAX_LOSS_BELOW_MINIMUM_RISK", "MAX_LOSS_REQUIRED"];

/** optimize/o1, o2 and o3: the options of the level, then optimise. */
export function OptionsScreen({ locale, level }: ScreenProps & { level: OptimisationLevel }) {
  const { t, i18n } = useLingui();
  const o = useOptimise(`o${level}`);
  const maxLossId = useId();
  const desiredId = useId();
  const addId = useId();
  const [adding, setAdding] = useState("");
  if (!o.actor || !o.snapshot || !o.portfolio) return <Spinner label={t`Loading…`} />;
  const { actor, snapshot } = o;
  const c = snapshot.context;
  const currency = c.portfolio.currency;
  const total = c.portfolio.assets.reduce((s, a) => s + a.investedAmount, 0);
  const minimum = minimumMaxToLose95(currency, total);
  const minimumText = formatMoney(minimum, currency, locale);
  const totalText = formatMoney(total, currency, locale);
  const texts = levelTexts[level];
  const title = i18n._(texts.title);
  if (snapshot.matches("choose"))
    return (
      <OptimisePage title={title} summary={i18n._(texts.text)} name={o.current?.name ?? null}>
        <LevelChoice
          actor={actor}
          permissions={o.permissions}
          product={o.product}
          locale={locale}
          lockedLevel={c.lockedLevel}
        />
      </OptimisePage>
    );
  const running = snapshot.matches("optimising");
  const universe = universeOf(c);
  const held = new Set(universe.map((a) => a.symbol));
  const candidates = (o.universe.data?.assets ?? []).filter((a) => !a.stale && !held.has(a.symbol));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    actor.send({ type: "optimisation.run" });
  };
  const addAsset = () => {
    const found = candidates.find(
      (a) => a.symbol === adding.trim() || `${a.name} (${a.symbol})` === adding.trim(),
    );
    if (!found) return;
    actor.send({ type: "newAsset.add", symbol: found.symbol, name: found.name });
    setAdding("");
  };
  // The maximum loss's own rules are told at its field, not in the form's message.
  const maxLossProblem = c.violations.find((v) => MAX_LOSS_RULES.includes(v.code));
  const pct = (w: number) => formatNumber(w * 100, locale, { maximumFractionDigits: 2 });
  return (
    <OptimisePage title={title} summary={i18n._(texts.text)} name={o.current?.name ?? null}>
      <form className="form form-wide optimise-form" onSubmit={submit} noValidate>
        <TermLinks
          label={t`In the dictionary:`}
          terms={[
            ["conditional-value-at-risk", t`CVaR`],
            ["minimum-desired-risk", t`Minimum desired risk`],
            ["mean-variance-optimisation", t`Mean-variance optimisation`],
            ["weight-constraints", t`Weight constraints`],
            ["cardinality-constraint", t`Cardinality constraint`],
          ]}
        />
        <p>
          <Trans>
            Invested: {totalText}. Risk is measured over one month on the portfolio&apos;s look-back
            window, from the daily prices.
          </Trans>
        </p>
        <MoneyField
          id={maxLossId}
          label={<Trans>Maximum loss at 95% over a month ({currency})</Trans>}
          name="maxToLose95"
          value={c.maxToLose95}
          locale={locale}
          disabled={running}
          onValueChange={(amount) => actor.send({ type: "maxLoss.change", amount })}
          error={maxLossProblem ? violationText(maxLossProblem, i18n, locale, currency) : undefined}
          hint={
            <Trans>
              The loss you could bear in a bad month (one in twenty). It must be at least the
              minimum desired risk, {minimumText}.
            </Trans>
          }
        />

        {level === 1 ? (
          <fieldset className="choice-grid">
            <legend>
              <Trans>What to optimise</Trans>
            </legend>
            <label className="choice">
              <input
                type="radio"
                name="objective"
                value="minimum-risk"
                checked={c.objective === "minimum-risk"}
                disabled={running}
                onChange={() => actor.send({ type: "objective.change", objective: "minimum-risk" })}
              />
              <span>
                <Trans>The lowest risk (minimum volatility)</Trans>
              </span>
            </label>
            <label className="choice">
              <input
                type="radio"
                name="objective"
                value="maximum-return"
                checked={c.objective === "maximum-return"}
                disabled={running}
                onChange={() =>
                  actor.send({ type: "objective.change", objective: "maximum-return" })
                }
              />
              <span>
                <Trans>The highest expected return within the maximum loss at 95%</Trans>
              </span>
            </label>
          </fieldset>
        ) : (
          <>
            <fieldset className="optimise-assets">
              <legend>
                <Trans>Assets to keep, with their minimum and maximum weight (%)</Trans>
              </legend>
              <ul>
                {universe.map((a) => {
                  const kept = c.keepAssets.includes(a.symbol);
                  const w = c.keepAssetsWeight[a.symbol] ?? DEFAULT_KEEP_WEIGHT;
                  const isNew = a.investedAmount === 0;
                  const name = a.name;
                  return (
                    <li key={a.symbol} className="optimise-asset" data-symbol={a.symbol}>
                      <label className="choice">
                        <input
                          type="checkbox"
                          checked={kept}
                          disabled={running}
                          onChange={() => actor.send({ type: "keep.toggle", symbol: a.symbol })}
                        />
                        <span>
                          <Trans>Keep {name}</Trans>
                          {isNew ? (
                            <>
                              {" "}
                              <span className="badge">
                                <Trans>new</Trans>
                              </span>
                            </>
                          ) : null}
                        </span>
                      </label>
                      {kept ? (
                        <span className="optimise-weights">
                          <label>
                            <Trans>min %</Trans>
                            <input
                              type="number"
                              inputMode="decimal"
                              min={0}
                              max={100}
                              step="1"
                              defaultValue={pct(w.min)}
                              disabled={running}
                              onBlur={(e) =>
                                actor.send({
                                  type: "keepWeight.change",
                                  symbol: a.symbol,
                                  min: (parse(e.target.value) ?? 0) / 100,
                                  max: w.max,
                                })
                              }
                            />
                          </label>
                          <label>
                            <Trans>max %</Trans>
                            <input
                              type="number"
                              inputMode="decimal"
                              min={0}
                              max={100}
                              step="1"
                              defaultValue={pct(w.max)}
                              disabled={running}
                              onBlur={(e) =>
                                actor.send({
                                  type: "keepWeight.change",
                                  symbol: a.symbol,
                                  min: w.min,
                                  max: (parse(e.target.value) ?? 100) / 100,
                                })
                              }
                            />
                          </label>
                        </span>
                      ) : null}
                      {isNew ? (
                        <button
                          type="button"
                          className="link-button"
                          disabled={running}
                          onClick={() => actor.send({ type: "newAsset.remove", symbol: a.symbol })}
                        >
                          <Trans>Remove {name}</Trans>
                        </button>
                      ) : null}
                    </li>
                  );
                })}
              </ul>
            </fieldset>
            <p className="field-hint" data-testid="market-suggestions">
              <Trans>
                The optimiser also considers the market assets of your plan that lower this
                portfolio&apos;s risk most (those that move least with it): you need not add any.
              </Trans>
            </p>
            <div className="field optimise-add">
              <label htmlFor={addId}>
                <Trans>Add an asset from the market</Trans>
              </label>
              <span className="optimise-add-row">
                <input
                  id={addId}
                  list={`${addId}-list`}
                  value={adding}
                  disabled={running}
                  onChange={(e) => setAdding(e.target.value)}
                  onKeyDown={(e) => {
                    if (e.key === "Enter") {
                      e.preventDefault();
                      addAsset();
                    }
                  }}
                />
                <datalist id={`${addId}-list`}>
                  {candidates.map((a) => (
                    <option key={a.symbol} value={a.symbol}>
                      {a.name}
                    </option>
                  ))}
                </datalist>
                <button
                  type="button"
                  className="button secondary"
                  disabled={running}
                  onClick={addAsset}
                >
                  <Trans>Add</Trans>
                </button>
              </span>
            </div>
          </>
        )}

        {level === 3 ? (
          <div className="field">
            <label htmlFor={desiredId}>
              <Trans>Number of assets you want</Trans>
            </label>
            <input
              id={desiredId}
              name="desiredAssetsAmount"
              type="number"
              inputMode="numeric"
              min={1}
              step={1}
              defaultValue={c.desiredAssetsAmount ?? ""}
              disabled={running}
              onChange={(e) =>
                actor.send({ type: "desired.change", amount: parse(e.target.value) })
              }
            />
          </div>
        ) : null}

        <Outcome snapshot={snapshot} locale={locale} total={total} shownAtFields={MAX_LOSS_RULES} />
        {running ? <Running actor={actor} /> : null}
        <p className="actions-row">
          <button type="submit" className="button primary" disabled={running}>
            <Trans>Run the optimisation</Trans>
          </button>
          <button
            type="button"
            className="button secondary"
            disabled={running}
            onClick={() => actor.send({ type: "step.back" })}
          >
            <Trans>Back to the levels</Trans>
          </button>
        </p>
      </form>
    </OptimisePage>
  );
}
