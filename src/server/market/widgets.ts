/**
 * The markets page's figures (docs/market-data.md, "Markets page"), computed from the market in
 * memory: the widgets (indices, volatility, EUR/USD, gold, Brent, crypto, 10-year yields), the top
 * gainers and losers per exchange, and sector performance. Nothing here reads the database; the
 * route caches each answer per snapshot and market day (widgets-cache.ts).
 */
import type {
  ChangeUnit,
  ExchangeMovers,
  MarketOverview,
  MarketMovers,
  MarketQuote,
  MarketSectors,
  MarketWidget,
  Mover,
  MoverPeriod,
  PriceSeries,
  QuoteChanges,
  SectorRow,
  WidgetId,
} from "../../contract/market.ts";
import { isoDate } from "../../engine/dates.ts";
import type { MarketView } from "./market-view.ts";
import { seriesOf, type AssetMeta, type Levels } from "./snapshot.ts";

/** An asset is stale when its last price is more than this many days before the market's today. */
export const STALE_DAYS = 14;

/** A day number moved back by whole months, the day clamped to the target month's length. */
export function monthsBefore(day: number, months: number): number {
  const d = new Date(day * 86_400_000);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth() - months;
  const target = new Date(Date.UTC(y, m, 1));
  const length = new Date(
    Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0),
  ).getUTCDate();
  return (
    Date.UTC(target.getUTCFullYear(), target.getUTCMonth(), Math.min(d.getUTCDate(), length)) /
    86_400_000
  );
}

/** The value of the last entry on or before `day` in ascending days, or null. */
function valueAtOrBefore(days: Int32Array, values: Float64Array, day: number): number | null {
  let lo = 0;
  let hi = days.length - 1;
  if (hi < 0 || days[0]! > day) return null;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (days[mid]! <= day) lo = mid;
    else hi = mid - 1;
  }
  return values[lo]!;
}

/** Changes at the series' last value (see QuoteChanges in the contract). */
export function changesOf(days: Int32Array, values: Float64Array, unit: ChangeUnit): QuoteChanges {
  const n = values.length;
  if (n === 0) return { day: null, month: null, ytd: null, year: null };
  const last = values[n - 1]!;
  const lastDay = days[n - 1]!;
  const against = (base: number | null) =>
    base === null ? null : unit === "points" ? last - base : base > 0 ? last / base - 1 : null;
  const yearEnd =
    Date.UTC(new Date(lastDay * 86_400_000).getUTCFullYear() - 1, 11, 31) / 86_400_000;
  return {
    day: n < 2 ? null : against(values[n - 2]!),
    month: against(valueAtOrBefore(days, values, monthsBefore(lastDay, 1))),
    ytd: against(valueAtOrBefore(days, values, yearEnd)),
    year: against(valueAtOrBefore(days, values, monthsBefore(lastDay, 12))),
  };
}

/** One instrument's closes up to the market's today: an asset of the snapshot or a macro series. */
export interface Instrument {
  readonly meta: AssetMeta;
  readonly days: Int32Array;
  readonly values: Float64Array;
  /** A macro series standing in for an asset (the simulated market's 10-year yields). */
  readonly macro: boolean;
}

/** Macro series that can stand for a market instrument when the data has no asset of that name. */
const macroStandIns: Record<string, Omit<AssetMeta, "symbol">> = {
  US10Y: {
    name: "US 10-year Treasury yield",
    kind: "rate",
    universe: "market",
    exchange: null,
    assetClass: null,
    region: "usa",
    country: "US",
    currency: "USD",
    sector: "Yield in percent",
  },
  DE10Y: {
    name: "German 10-year Bund yield",
    kind: "rate",
    universe: "market",
    exchange: null,
    assetClass: null,
    region: "eu",
    country: "DE",
    currency: "EUR",
    sector: "Yield in percent",
  },
};

const upTo = (levels: Levels, day: number): { days: Int32Array; values: Float64Array } => {
  let n = 0;
  while (n < levels.dates.length && levels.dates[n]! <= day) n++;
  return { days: levels.dates.subarray(0, n), values: levels.values.subarray(0, n) };
};

/** The instrument of a symbol as of the market's today, or null when the data has none. */
export function instrumentOf(view: MarketView, symbol: string): Instrument | null {
  const s = view.snapshot;
  if (view.todayIndex < 0) return null;
  const i = s.index.get(symbol);
  if (i !== undefined) {
    const series = seriesOf(s, i, Number.NEGATIVE_INFINITY, view.todayIndex);
    if (series.values.length === 0) return null;
    return { meta: s.assets[i]!, days: series.dates, values: series.values, macro: false };
  }
  const standIn = macroStandIns[symbol];
  const levels = standIn ? s.macroByName.get(symbol) : undefined;
  if (!standIn || !levels) return null;
  const series = upTo(levels, s.calendar[view.todayIndex]!);
  if (series.values.length === 0) return null;
  return { meta: { symbol, ...standIn }, days: series.days, values: series.values, macro: true };
}

export const unitOf = (kind: string): ChangeUnit => (kind === "rate" ? "points" : "relative");

export function quoteOf(view: MarketView, instrument: Instrument): MarketQuote {
  const { meta, days, values } = instrument;
  const n = values.length;
  const lastDay = days[n - 1]!;
  const todayDay = view.snapshot.calendar[view.todayIndex]!;
  return {
    symbol: meta.symbol,
    name: meta.name,
    kind: meta.kind,
    currency: meta.currency,
    exchange: meta.exchange,
    lastDate: isoDate(lastDay),
    last: values[n - 1]!,
    changes: changesOf(days, values, unitOf(meta.kind)),
    changeUnit: unitOf(meta.kind),
    stale: lastDay < todayDay - STALE_DAYS,
  };
}

/** The closes from `fromDay` (inclusive) to the end of the instrument's series. */
export function seriesFrom(instrument: Instrument, fromDay: number): PriceSeries {
  const dates: string[] = [];
  const closes: number[] = [];
  for (let k = 0; k < instrument.days.length; k++) {
    if (instrument.days[k]! < fromDay) continue;
    dates.push(isoDate(instrument.days[k]!));
    closes.push(instrument.values[k]!);
  }
  return { dates, closes };
}

/** A widget slot: the instrument it shows, by preference, and its name when the data lacks it. */
interface Slot {
  readonly name: string;
  readonly symbols: readonly string[];
}

/**
 * The widgets of PRODUCT.md ("Markets and the investment simulator"). A slot shows the first of
 * its symbols the data has (gold: the futures, else the gold ETF, named as such); a slot the data
 * cannot fill is listed in `missing` by its first symbol (the page names it).
 */
export const widgetSlots: Record<WidgetId, readonly Slot[]> = {
  indices: [
    { name: "S&P 500", symbols: ["GSPC_INDEX"] },
    { name: "Nasdaq-100", symbols: ["NDX_INDEX"] },
    { name: "EURO STOXX 50", symbols: ["STOXX50E_INDEX"] },
    { name: "IBEX 35", symbols: ["IBEX_INDEX"] },
    { name: "DAX", symbols: ["GDAXI_INDEX"] },
    { name: "CAC 40", symbols: ["FCHI_INDEX"] },
    { name: "FTSE MIB", symbols: ["FTSEMIB_INDEX"] },
  ],
  volatility: [{ name: "VIX", symbols: ["VIX_INDEX"] }],
  currencies: [{ name: "EUR/USD", symbols: ["EURUSD"] }],
  commodities: [
    { name: "Gold", symbols: ["GOLD_USD", "GLD"] },
    { name: "Brent", symbols: ["BRENT_USD"] },
  ],
  crypto: [
    { name: "Bitcoin", symbols: ["BTC-USD"] },
    { name: "Ether", symbols: ["ETH-USD"] },
  ],
  yields: [
    { name: "US 10-year", symbols: ["US10Y"] },
    { name: "Germany 10-year", symbols: ["DE10Y"] },
  ],
};

const widgetOrder: readonly WidgetId[] = [
  "indices",
  "volatility",
  "currencies",
  "commodities",
  "crypto",
  "yields",
];

const stamp = (view: MarketView) => ({
  today: view.today,
  source: view.source,
  simulated: view.source === "simulated",
});

/** Every widget with its instruments' quotes and last year of closes. */
export function marketOverview(view: MarketView): MarketOverview {
  const widgets: MarketWidget[] = widgetOrder.map((id) => {
    const items: MarketWidget["items"][number][] = [];
    const missing: string[] = [];
    for (const slot of widgetSlots[id]) {
      const instrument = slot.symbols
        .map((symbol) => instrumentOf(view, symbol))
        .find((x) => x !== null);
      if (!instrument) {
        missing.push(slot.symbols[0]!);
        continue;
      }
      const lastDay = instrument.days[instrument.days.length - 1]!;
      items.push({
        quote: quoteOf(view, instrument),
        series: seriesFrom(instrument, monthsBefore(lastDay, 12)),
      });
    }
    return { id, items, missing };
  });
  return { ...stamp(view), widgets };
}

/** Quotes of every stock of the snapshot that is not stale, with its exchange and sector. */
function stockQuotes(view: MarketView): { meta: AssetMeta; quote: MarketQuote }[] {
  if (view.todayIndex < 0) return [];
  const out: { meta: AssetMeta; quote: MarketQuote }[] = [];
  for (const meta of view.snapshot.assets) {
    if (meta.kind !== "stock") continue;
    const instrument = instrumentOf(view, meta.symbol);
    if (!instrument) continue;
    const quote = quoteOf(view, instrument);
    if (!quote.stale) out.push({ meta, quote });
  }
  return out;
}

export const MOVERS_PER_LIST = 5;

function moverLists(stocks: readonly { quote: MarketQuote }[], period: MoverPeriod) {
  const movers: Mover[] = [];
  for (const { quote } of stocks) {
    const change = quote.changes[period];
    if (change === null || quote.last === null) continue;
    movers.push({
      symbol: quote.symbol,
      name: quote.name,
      currency: quote.currency,
      last: quote.last,
      change,
    });
  }
  const bySymbol = (a: Mover, b: Mover) => (a.symbol < b.symbol ? -1 : 1);
  return {
    gainers: movers
      .filter((m) => m.change > 0)
      .sort((a, b) => b.change - a.change || bySymbol(a, b))
      .slice(0, MOVERS_PER_LIST),
    losers: movers
      .filter((m) => m.change < 0)
      .sort((a, b) => a.change - b.change || bySymbol(a, b))
      .slice(0, MOVERS_PER_LIST),
  };
}

/** The top gainers and losers of each exchange over the day, the month and the year to date. */
export function marketMovers(view: MarketView): MarketMovers {
  const byExchange = new Map<string, { quote: MarketQuote }[]>();
  for (const stock of stockQuotes(view)) {
    const exchange = stock.meta.exchange;
    if (!exchange) continue;
    let list = byExchange.get(exchange);
    if (!list) byExchange.set(exchange, (list = []));
    list.push(stock);
  }
  const exchanges: ExchangeMovers[] = [...byExchange]
    .sort(([a, x], [b, y]) => y.length - x.length || (a < b ? -1 : 1))
    .map(([exchange, stocks]) => ({
      exchange,
      count: stocks.length,
      day: moverLists(stocks, "day"),
      month: moverLists(stocks, "month"),
      ytd: moverLists(stocks, "ytd"),
    }));
  return { ...stamp(view), exchanges };
}

const mean = (xs: readonly (number | null)[]): number | null => {
  const finite = xs.filter((x): x is number => x !== null);
  return finite.length === 0 ? null : finite.reduce((s, x) => s + x, 0) / finite.length;
};

function sectorRows(stocks: readonly { meta: AssetMeta; quote: MarketQuote }[]): SectorRow[] {
  const bySector = new Map<string, MarketQuote[]>();
  for (const { meta, quote } of stocks) {
    const sector = meta.sector ?? "Other";
    let list = bySector.get(sector);
    if (!list) bySector.set(sector, (list = []));
    list.push(quote);
  }
  return [...bySector]
    .map(([sector, quotes]) => ({
      sector,
      count: quotes.length,
      day: mean(quotes.map((q) => q.changes.day)),
      month: mean(quotes.map((q) => q.changes.month)),
      ytd: mean(quotes.map((q) => q.changes.ytd)),
      year: mean(quotes.map((q) => q.changes.year)),
    }))
    .sort((a, b) => (a.sector < b.sector ? -1 : 1));
}

/** Sector performance: the equal-weighted mean change of each sector's stocks, overall and per region. */
export function marketSectors(view: MarketView): MarketSectors {
  const stocks = stockQuotes(view);
  const regions = [...new Set(stocks.map((s) => s.meta.region).filter((r) => r !== null))].sort();
  return {
    ...stamp(view),
    regions: [
      { region: "all", sectors: sectorRows(stocks) },
      ...regions.map((region) => ({
        region,
        sectors: sectorRows(stocks.filter((s) => s.meta.region === region)),
      })),
    ],
  };
}
