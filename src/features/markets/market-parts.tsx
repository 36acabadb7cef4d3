import { Trans, useLingui } from "@lingui/react/macro";
import { useMemo, type ReactNode } from "react";
import { Link } from "react-router-dom";
import { fromPromise } from "xstate";
import { dataLoadMachine } from "../../../machines/data-load.machine.ts";
import { useServices } from "../../app/services.tsx";
import { useAppMachine } from "../../app/use-app-machine.ts";
import type { Locale } from "../../contract/common.ts";
import type { MarketQuote, QuoteChanges } from "../../contract/market.ts";
import { formatLongDate } from "../../ui/format.ts";
import { Spinner } from "../../ui/spinner.tsx";
import { formatChange, instrumentNames } from "./market-format.ts";
import type { HttpClient } from "../../client/http.ts";

/** The data's date and, when simulated, "Simulated prices": on every block with prices. */
export function DataStamp({
  today,
  simulated,
  locale,
}: {
  today: string | null;
  simulated: boolean;
  locale: Locale;
}) {
  const date = today ? formatLongDate(today, locale) : "";
  return (
    <p className="data-stamp" data-testid="data-stamp" data-today={today ?? ""}>
      {today ? <Trans>Prices as of {date} (market date)</Trans> : <Trans>No prices yet</Trans>}
      {simulated ? (
        <>
          {" "}
          <span className="badge">
            <Trans>Simulated prices</Trans>
          </span>
        </>
      ) : null}
    </p>
  );
}

/** The asset view's address: the markets page with `?asset=SYMBOL`. */
export const assetHref = (symbol: string) => `?asset=${encodeURIComponent(symbol)}`;

export function AssetLink({ symbol, children }: { symbol: string; children: ReactNode }) {
  return (
    <Link to={{ search: assetHref(symbol) }} data-symbol={symbol}>
      {children}
    </Link>
  );
}

export function Change({
  value,
  unit,
  locale,
}: {
  value: number | null;
  unit: MarketQuote["changeUnit"];
  locale: Locale;
}) {
  const { t } = useLingui();
  if (value === null) return <span className="change">—</span>;
  return (
    <span
      className={value > 0 ? "change positive" : value < 0 ? "change negative" : "change"}
      data-value={value}
    >
      {formatChange(value, unit, locale, t({ message: "pp", comment: "percentage points" }))}
    </span>
  );
}

/** The day's, month's, year-to-date and year's changes as a description list. */
export function ChangeList({
  changes,
  unit,
  locale,
  periods = ["day", "month", "year"],
}: {
  changes: QuoteChanges;
  unit: MarketQuote["changeUnit"];
  locale: Locale;
  periods?: readonly (keyof QuoteChanges)[];
}) {
  const { t } = useLingui();
  const names: Record<keyof QuoteChanges, string> = {
    day: t`Day`,
    month: t`Month`,
    ytd: t`Year to date`,
    year: t`Year`,
  };
  return (
    <dl className="change-list">
      {periods.map((p) => (
        <div key={p} data-period={p}>
          <dt>{names[p]}</dt>
          <dd>
            <Change value={changes[p]} unit={unit} locale={locale} />
          </dd>
        </div>
      ))}
    </dl>
  );
}

export function StaleNote({ quote, locale }: { quote: MarketQuote; locale: Locale }) {
  if (!quote.stale || !quote.lastDate) return null;
  const date = formatLongDate(quote.lastDate, locale);
  return (
    <p className="stale-note" data-testid="stale-note">
      <strong>
        <Trans>No recent prices: the last close is from {date}.</Trans>
      </strong>
    </p>
  );
}

/** Loads one markets answer with the reusable loader machine; renders it or a retry. */
export function useMarketLoad<T>(call: (http: HttpClient) => Promise<T>, key: string) {
  const { http } = useServices();
  const machine = useMemo(
    () =>
      dataLoadMachine.provide({
        actors: { load: fromPromise(async (): Promise<unknown> => call(http)) },
      }),
    // The call changes with the key only (a new symbol or range).
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [http, key],
  );
  const [snapshot, send] = useAppMachine(machine);
  return {
    data: snapshot.matches("loaded") ? (snapshot.context.data as T) : null,
    failed: snapshot.matches("failed"),
    retry: () => send({ type: "data.retry" }),
  };
}

export function LoadState({
  failed,
  retry,
  loadingLabel,
}: {
  failed: boolean;
  retry: () => void;
  loadingLabel: string;
}) {
  if (!failed) return <Spinner label={loadingLabel} />;
  return (
    <p role="alert">
      <Trans>The prices could not be loaded.</Trans>{" "}
      <button type="button" className="link-button" onClick={retry}>
        <Trans>Try again</Trans>
      </button>
    </p>
  );
}

/** An instrument's name on the page: the short translated name of a widget instrument, else the data's. */
export function useInstrumentName() {
  const { i18n } = useLingui();
  return (symbol: string, dataName: string) =>
    instrumentNames[symbol] ? i18n._(instrumentNames[symbol]) : dataName;
}
