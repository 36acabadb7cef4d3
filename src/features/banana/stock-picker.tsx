import { Trans, useLingui } from "@lingui/react/macro";
import { useId, useMemo, useState } from "react";
import {
  bananaTotal,
  type BananaPick,
  type BananaPrices,
} from "../../../machines/banana.machine.ts";
import {
  BANANA_MAX_ASSETS,
  budgetCents,
  budgetProblem,
  type BananaStock,
} from "../../contract/banana.ts";
import { toCents } from "../../contract/money.ts";
import type { Currency } from "../../contract/analytics.ts";
import type { Locale } from "../../contract/common.ts";
import { foldForSearch } from "../../contract/education.ts";
import { formatMoney, formatNumber } from "../../ui/format.ts";
import { NumberInput } from "../../ui/number-input.tsx";

/** Stocks listed at most while searching: the list stays readable, the search narrows it. */
const SHOWN = 40;

export interface StockPickerProps {
  readonly stocks: readonly BananaStock[];
  readonly picks: readonly BananaPick[];
  readonly prices: BananaPrices;
  readonly currency: Currency;
  readonly locale: Locale;
  /** Names of held stocks that are no longer offered (an edit may keep them). */
  readonly heldNames?: ReadonlyMap<string, string>;
  readonly disabled?: boolean;
  readonly onAdd: (symbol: string) => void;
  readonly onRemove: (symbol: string) => void;
  readonly onShares: (symbol: string, shares: number | null) => void;
}

/** Search by name or symbol (case and accents ignored), exchange and sector. */
export function filterStocks(
  stocks: readonly BananaStock[],
  query: string,
  exchange: string,
  sector: string,
): BananaStock[] {
  const q = foldForSearch(query.trim());
  return stocks.filter(
    (s) =>
      (!exchange || s.exchange === exchange) &&
      (!sector || (s.sector ?? "") === sector) &&
      (!q || foldForSearch(s.name).includes(q) || foldForSearch(s.symbol).includes(q)),
  );
}

/** Where the total stands against the budget, in words (announced as it changes). */
export function BudgetStatus({
  total,
  currency,
  locale,
}: {
  total: number;
  currency: Currency;
  locale: Locale;
}) {
  const bounds = budgetCents();
  const money = (v: number) => formatMoney(v, currency, locale);
  const problem = budgetProblem(total);
  const min = money(bounds.min / 100);
  const max = money(bounds.max / 100);
  const shown = money(total);
  const below = money((bounds.min - toCents(total)) / 100);
  const over = money((toCents(total) - bounds.max) / 100);
  const ratio = Math.min(1, total / (bounds.max / 100));
  return (
    <div className={`banana-budget ${problem ? "off" : "within"}`} data-testid="banana-budget">
      <p className="banana-budget-total">
        <Trans>
          Total: <strong>{shown}</strong> (budget {min} to {max})
        </Trans>
      </p>
      <div className="banana-budget-bar" aria-hidden="true">
        <span style={{ width: `${(ratio * 100).toFixed(1)}%` }} />
        <i style={{ left: `${((bounds.min / bounds.max) * 100).toFixed(1)}%` }} />
      </div>
      <p role="status" aria-live="polite" data-testid="banana-budget-status">
        {problem === "TOTAL_TOO_LOW" ? (
          <Trans>{below} below the budget: buy more shares.</Trans>
        ) : problem === "TOTAL_TOO_HIGH" ? (
          <Trans>{over} over the budget: buy fewer shares.</Trans>
        ) : (
          <Trans>Within the budget.</Trans>
        )}
      </p>
    </div>
  );
}

/**
 * The banana stock picker: the region's stocks at the day's close, searched by name, exchange and
 * sector; the chosen ones in whole shares with what each costs; the total live against the budget
 * and the number of stocks against 50.
 */
export function StockPicker({
  stocks,
  picks,
  prices,
  currency,
  locale,
  heldNames,
  disabled = false,
  onAdd,
  onRemove,
  onShares,
}: StockPickerProps) {
  const { t } = useLingui();
  const id = useId();
  const [query, setQuery] = useState("");
  const [exchange, setExchange] = useState("");
  const [sector, setSector] = useState("");
  const exchanges = useMemo(() => [...new Set(stocks.map((s) => s.exchange))].sort(), [stocks]);
  const sectors = useMemo(
    () => [...new Set(stocks.map((s) => s.sector ?? ""))].filter(Boolean).sort(),
    [stocks],
  );
  const chosen = new Set(picks.map((p) => p.symbol));
  const found = filterStocks(stocks, query, exchange, sector).filter((s) => !chosen.has(s.symbol));
  const byId = new Map(stocks.map((s) => [s.symbol, s]));
  const held = picks.filter((p) => p.shares !== 0).length;
  const full = held >= BANANA_MAX_ASSETS;
  const total = bananaTotal(picks, prices);
  const money = (v: number) => formatMoney(v, currency, locale);
  const count = formatNumber(held, locale);
  const maxStocks = formatNumber(BANANA_MAX_ASSETS, locale);
  const shownCount = formatNumber(Math.min(found.length, SHOWN), locale);
  const foundCount = formatNumber(found.length, locale);

  return (
    <div className="banana-picker">
      <section className="card" aria-labelledby={`${id}-chosen`}>
        <h2 id={`${id}-chosen`}>{t`Your stocks`}</h2>
        <p className="muted" data-testid="banana-count">
          <Trans>
            {count} of {maxStocks} stocks at most
          </Trans>
        </p>
        {picks.length === 0 ? (
          <p className="notice">
            <Trans>No stocks yet: search below and add them.</Trans>
          </p>
        ) : (
          <div className="table-scroll" role="region" aria-label={t`Your stocks`} tabIndex={0}>
            <table className="data-table banana-chosen">
              <caption className="visually-hidden">{t`Your stocks`}</caption>
              <thead>
                <tr>
                  <th scope="col">{t`Stock`}</th>
                  <th scope="col">{t`Last close`}</th>
                  <th scope="col">{t`Shares`}</th>
                  <th scope="col">{t`Cost`}</th>
                  <th scope="col">
                    <span className="visually-hidden">{t`Remove`}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {picks.map((p) => {
                  const stock = byId.get(p.symbol);
                  const name = stock?.name ?? heldNames?.get(p.symbol) ?? p.symbol;
                  const price = prices.get(p.symbol) ?? 0;
                  const sold = p.shares === 0;
                  return (
                    <tr key={p.symbol} className={sold ? "sold" : undefined}>
                      <th scope="row">
                        {name} <span className="muted holding-id">{p.symbol}</span>
                      </th>
                      <td>{money(price)}</td>
                      <td>
                        <NumberInput
                          className="shares-input"
                          aria-label={t`Shares of ${name}`}
                          value={p.shares}
                          locale={locale}
                          maximumFractionDigits={0}
                          disabled={disabled}
                          onValueChange={(v) => onShares(p.symbol, v)}
                        />
                      </td>
                      <td>
                        {sold ? t`sold` : money(Math.round((p.shares ?? 0) * price * 100) / 100)}
                      </td>
                      <td>
                        {sold ? null : (
                          <button
                            type="button"
                            className="link-button"
                            disabled={disabled}
                            onClick={() => onRemove(p.symbol)}
                          >
                            {t`Remove ${name}`}
                          </button>
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
        <BudgetStatus total={total} currency={currency} locale={locale} />
      </section>

      <section className="card" aria-labelledby={`${id}-find`}>
        <h2 id={`${id}-find`}>{t`Find stocks`}</h2>
        <div className="banana-filters">
          <div className="field">
            <label htmlFor={`${id}-q`}>{t`Name or symbol`}</label>
            <input
              id={`${id}-q`}
              type="search"
              value={query}
              onChange={(e) => setQuery(e.target.value)}
              autoComplete="off"
            />
          </div>
          <div className="field">
            <label htmlFor={`${id}-x`}>{t`Exchange`}</label>
            <select id={`${id}-x`} value={exchange} onChange={(e) => setExchange(e.target.value)}>
              <option value="">{t`All exchanges`}</option>
              {exchanges.map((x) => (
                <option key={x} value={x}>
                  {x}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor={`${id}-s`}>{t`Sector`}</label>
            <select id={`${id}-s`} value={sector} onChange={(e) => setSector(e.target.value)}>
              <option value="">{t`All sectors`}</option>
              {sectors.map((x) => (
                <option key={x} value={x}>
                  {x}
                </option>
              ))}
            </select>
          </div>
        </div>
        <p className="muted" aria-live="polite" data-testid="banana-found">
          {found.length > SHOWN ? (
            <Trans>
              {foundCount} stocks found; the first {shownCount} are listed, search to narrow them.
            </Trans>
          ) : (
            <Trans>{foundCount} stocks found.</Trans>
          )}
        </p>
        {full ? (
          <p className="notice">
            <Trans>You hold 50 stocks, the most a banana portfolio can.</Trans>
          </p>
        ) : null}
        <ul className="banana-results">
          {found.slice(0, SHOWN).map((s) => {
            const stockName = s.name;
            return (
              <li key={s.symbol}>
                <span className="banana-result-name">
                  {s.name}{" "}
                  <span className="muted holding-id">
                    {s.symbol} · {s.exchange}
                    {s.sector ? ` · ${s.sector}` : ""}
                  </span>
                </span>
                <span className="banana-result-close">{money(s.close)}</span>
                <button
                  type="button"
                  className="button ghost"
                  disabled={disabled || full}
                  onClick={() => onAdd(s.symbol)}
                >
                  {t`Add ${stockName}`}
                </button>
              </li>
            );
          })}
        </ul>
      </section>
    </div>
  );
}
