import { Schema } from "effect";

/** Languages of the product; the first segment of every localised path. */
export const Locale = Schema.Literals(["en", "es"]);
export type Locale = typeof Locale.Type;
export const locales: readonly Locale[] = ["en", "es"];
export const defaultLocale: Locale = "en";

/** The two branded editions (web-context setting `ctx`). */
export const Edition = Schema.Literals(["ht", "tt"]);
export type Edition = typeof Edition.Type;

/** Products (portfolio types, `stc`). */
export const Product = Schema.Literals(["simAssets", "simIndices", "simMonk"]);
export type Product = typeof Product.Type;
export const products: readonly Product[] = ["simAssets", "simIndices", "simMonk"];
export const defaultProduct: Product = "simAssets";

/** Query parameters that every API request carries (specification, section 7). */
export const CommonQuery = Schema.Struct({
  lang: Schema.optional(Locale),
  ctx: Schema.optional(Edition),
  stc: Schema.optional(Product),
});
export type CommonQuery = typeof CommonQuery.Type;

/**
 * How long the app waits for an API answer before it gives up (src/client/http.ts); the server's
 * analytics queue answers 503 well before (src/server/analytics/pool.ts).
 */
export const API_TIMEOUT_MS = 30_000;

/** The largest value of a PostgreSQL `integer` column (every id of the database is one). */
export const MAX_DB_INTEGER = 2 ** 31 - 1;

/** A row's version (optimistic concurrency): a positive integer the `integer` column can hold. */
export const RowVersion = Schema.Number.pipe(
  Schema.check(
    Schema.isInt(),
    Schema.isGreaterThanOrEqualTo(1),
    Schema.isLessThanOrEqualTo(MAX_DB_INTEGER),
  ),
);

/**
 * A database id in a path (`/portfolios/:id`): a positive integer without leading zeros that fits
 * the `integer` column, so an id that cannot exist never reaches a query.
 */
export const DbIdParam = Schema.String.pipe(
  Schema.check(
    Schema.isPattern(/^[1-9][0-9]{0,9}$/),
    Schema.makeFilter((s: string) => Number(s) <= MAX_DB_INTEGER || "an id of at most 2147483647"),
  ),
);

/** A day of the calendar as YYYY-MM-DD (2023-02-30 is not one): what a `date` column stores. */
export function isCalendarDay(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const day = new Date(Date.UTC(y, mo - 1, d));
  return (
    y >= 1 && day.getUTCFullYear() === y && day.getUTCMonth() === mo - 1 && day.getUTCDate() === d
  );
}
