import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { ImportError, parseCsv } from "./csv.ts";

/** One row of assets.csv (the documented import format: ../docs/market-data.md). */
export interface AssetRecord {
  readonly symbol: string;
  readonly name: string;
  readonly kind: string;
  readonly universe: string;
  readonly exchange: string | null;
  readonly assetClass: string | null;
  readonly region: string | null;
  readonly country: string | null;
  readonly currency: string;
  readonly sector: string | null;
  readonly firstDate: string;
  readonly lastDate: string;
  readonly sourceId: string;
}

export interface Series {
  readonly dates: string[];
  readonly values: number[];
}

export interface Dataset {
  readonly assets: readonly AssetRecord[];
  /** Closes per symbol (prices/<SYMBOL>.csv), ascending. */
  readonly prices: ReadonlyMap<string, Series>;
  /** Macro and monthly series (macro/*.csv and fx/EURUSD_MONTHLY.csv). */
  readonly macro: ReadonlyMap<string, Series>;
}

const ASSET_HEADER = [
  "symbol",
  "name",
  "kind",
  "universe",
  "exchange",
  "asset_class",
  "region",
  "country",
  "currency",
  "sector",
  "first_date",
  "last_date",
  "source_id",
];
const KINDS = new Set(["stock", "etf", "index", "crypto", "commodity", "fx", "rate", "cash"]);
const UNIVERSES = new Set(["simAssets", "simIndices", "market"]);
const SYMBOL = /^[A-Za-z0-9._-]+$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

const validDate = (s: string) => ISO_DATE.test(s) && !Number.isNaN(Date.parse(`${s}T00:00:00Z`));
const orNull = (s: string) => (s === "" ? null : s);

function parseAssets(text: string): AssetRecord[] {
  const file = "assets.csv";
  const table = parseCsv(file, text, ASSET_HEADER);
  const seen = new Set<string>();
  return table.rows.map(({ line, fields }) => {
    const [
      symbol,
      name,
      kind,
      universe,
      exchange,
      assetClass,
      region,
      country,
      currency,
      sector,
      firstDate,
      lastDate,
      sourceId,
    ] = fields as string[];
    if (!SYMBOL.test(symbol!)) throw new ImportError(file, line, `invalid symbol "${symbol}"`);
    if (seen.has(symbol!)) throw new ImportError(file, line, `duplicate symbol "${symbol}"`);
    seen.add(symbol!);
    if (!name) throw new ImportError(file, line, "empty name");
    if (!KINDS.has(kind!)) throw new ImportError(file, line, `unknown kind "${kind}"`);
    if (!UNIVERSES.has(universe!))
      throw new ImportError(file, line, `unknown universe "${universe}"`);
    if (!/^[A-Z]{3}$/.test(currency!))
      throw new ImportError(file, line, `invalid currency "${currency}"`);
    if (kind === "stock" && currency !== "EUR" && currency !== "USD")
      throw new ImportError(file, line, `a stock must be in EUR or USD, found ${currency}`);
    if (!validDate(firstDate!) || !validDate(lastDate!))
      throw new ImportError(file, line, "invalid first_date or last_date");
    return {
      symbol: symbol!,
      name: name!,
      kind: kind!,
      universe: universe!,
      exchange: orNull(exchange!),
      assetClass: orNull(assetClass!),
      region: orNull(region!),
      country: orNull(country!),
      currency: currency!,
      sector: orNull(sector!),
      firstDate: firstDate!,
      lastDate: lastDate!,
      sourceId: sourceId!,
    };
  });
}

/** Parses a date,value file: ISO dates strictly ascending, finite numbers (positive unless allowed). */
export function parseSeries(
  file: string,
  text: string,
  valueColumn: string,
  options: { allowNonPositive: boolean; asOf: string | null },
): Series {
  const table = parseCsv(file, text, ["date", valueColumn]);
  const dates: string[] = [];
  const values: number[] = [];
  let previous = "";
  for (const { line, fields } of table.rows) {
    const [date, raw] = fields as [string, string];
    if (!validDate(date)) throw new ImportError(file, line, `invalid date "${date}"`);
    if (date <= previous)
      throw new ImportError(file, line, `date ${date} is not after ${previous}`);
    previous = date;
    const value = Number(raw);
    if (raw.trim() === "" || !Number.isFinite(value))
      throw new ImportError(file, line, `invalid number "${raw}"`);
    if (!options.allowNonPositive && value <= 0)
      throw new ImportError(file, line, `price must be positive, found ${raw}`);
    if (options.asOf !== null && date > options.asOf) break;
    dates.push(date);
    values.push(value);
  }
  return { dates, values };
}

export interface ReadOptions {
  /** Keep only rows up to this date (ISO), to fix the market's "today". */
  readonly asOf?: string | null;
}

/** Reads and validates a folder in the documented format; every problem names its file and line. */
export async function readDataset(folder: string, options: ReadOptions = {}): Promise<Dataset> {
  const asOf = options.asOf ?? null;
  if (asOf !== null && !validDate(asOf))
    throw new ImportError("--as-of", null, `invalid date "${asOf}"`);
  let assetsText: string;
  try {
    assetsText = await readFile(path.join(folder, "assets.csv"), "utf8");
  } catch {
    throw new ImportError(path.join(folder, "assets.csv"), null, "not found");
  }
  const assets = parseAssets(assetsText);
  const prices = new Map<string, Series>();
  await Promise.all(
    assets.map(async (asset) => {
      const file = `prices/${asset.symbol}.csv`;
      let text: string;
      try {
        text = await readFile(path.join(folder, file), "utf8");
      } catch {
        throw new ImportError(file, null, `missing (listed in assets.csv)`);
      }
      prices.set(
        asset.symbol,
        parseSeries(file, text, "close", { allowNonPositive: asset.kind === "rate", asOf }),
      );
    }),
  );
  const macro = new Map<string, Series>();
  const macroDir = path.join(folder, "macro");
  const macroFiles = await readdir(macroDir).catch(() => [] as string[]);
  await Promise.all(
    macroFiles
      .filter((f) => f.endsWith(".csv"))
      .map(async (f) => {
        const file = `macro/${f}`;
        macro.set(
          f.replace(/\.csv$/, ""),
          parseSeries(file, await readFile(path.join(macroDir, f), "utf8"), "value", {
            allowNonPositive: true,
            asOf,
          }),
        );
      }),
  );
  const monthlyFx = await readFile(path.join(folder, "fx", "EURUSD_MONTHLY.csv"), "utf8").catch(
    () => null,
  );
  if (monthlyFx !== null)
    macro.set(
      "EURUSD_MONTHLY",
      parseSeries("fx/EURUSD_MONTHLY.csv", monthlyFx, "rate", { allowNonPositive: false, asOf }),
    );
  return { assets, prices, macro };
}
