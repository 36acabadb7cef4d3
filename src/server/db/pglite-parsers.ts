import type { PGlite } from "@electric-sql/pglite";
import {
  namedStatements,
  takesNamedPath,
  type StatementQueryOptions,
} from "./pglite-statements.ts";

/**
 * The type parsers drizzle's PGlite driver sends with every query: timestamps, dates, intervals
 * and their arrays are kept as PostgreSQL's text, which drizzle's columns then read.
 */
const TEXT_TYPES = [1114, 1184, 1186, 1082, 1231, 1115, 1185, 1187, 1182] as const;
const asText = (value: string) => value;

type QueryOptions = { readonly parsers?: Readonly<Record<number | string, unknown>> } & Record<
  string,
  unknown
>;

/** True when the query's parsers are exactly the ones the client was given (drizzle's). */
function onlyTextParsers(parsers: QueryOptions["parsers"]): boolean {
  if (!parsers) return false;
  const keys = Object.keys(parsers);
  return keys.length === TEXT_TYPES.length && TEXT_TYPES.every((oid) => oid in parsers);
}

/** `named` runs the client's own statements (a transaction's go through PGlite's `query`). */
function withoutParsers<T extends object>(
  target: T,
  named?: ReturnType<typeof namedStatements>,
): T {
  // One wrapper per method, made on first use (drizzle reads `query` for every statement).
  const wrappers = new Map<PropertyKey, { of: unknown; wrapper: unknown }>();
  const wrap = (client: T, property: PropertyKey, value: (...a: unknown[]) => unknown) => {
    if (property === "query") {
      return (text: string, params?: unknown[], options?: QueryOptions) => {
        const own =
          options && onlyTextParsers(options.parsers)
            ? { ...options, parsers: undefined }
            : options;
        return named && takesNamedPath(own)
          ? named(text, params, own as StatementQueryOptions | undefined)
          : value.call(client, text, params, own);
      };
    }
    if (property === "transaction") {
      return (callback: (tx: object) => unknown) =>
        value.call(client, (tx: object) => callback(withoutParsers(tx)));
    }
    return value.bind(client);
  };
  return new Proxy(target, {
    get(client, property) {
      const value: unknown = Reflect.get(client, property, client);
      if (typeof value !== "function") return value;
      const known = wrappers.get(property);
      if (known?.of === value) return known.wrapper;
      const wrapper = wrap(client, property, value as (...a: unknown[]) => unknown);
      wrappers.set(property, { of: value, wrapper });
      return wrapper;
    },
  });
}

/**
 * The embedded database's client as drizzle should see it. drizzle's driver sends the same type
 * parsers with every query, and PGlite merges a query's parsers into a copy of its own 300-odd for
 * each such query: about 0.1 ms of the request thread per statement, a third of a session lookup
 * (measured: 0.19 ms a query without them, 0.31 ms with; 13% of the request thread under load).
 * The client keeps those parsers once, and drizzle's queries reach it without them: the same
 * values, read the same way. Outside transactions they run as named prepared statements
 * (pglite-statements.ts).
 */
export function sharingDrizzleParsers(client: PGlite): PGlite {
  for (const oid of TEXT_TYPES) client.parsers[oid] = asText;
  return withoutParsers(client, namedStatements(client));
}
