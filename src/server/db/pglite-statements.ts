import type { PGlite } from "@electric-sql/pglite";
import { serialize } from "pg-protocol";

/**
 * Named prepared statements for the embedded database (docs/performance.md, "The embedded
 * database"). PGlite's `query` parses, plans and describes every statement anew, in six calls into
 * the database (Parse, Describe, Bind, Describe, Execute, Sync); a session lookup took 0.44 ms of
 * the request thread that way. Here a statement is parsed and described once per text under a name,
 * and each run is one call (Bind, Execute, Sync) that reuses its plan: 0.12 ms for the same lookup.
 * Values are written and read with the client's own serializers and parsers, and the answer has the
 * shape PGlite's `query` gives, so its callers (drizzle) cannot tell the difference.
 */

interface Statement {
  readonly name: string;
  /** Type OIDs of the parameters, as the database inferred them. */
  readonly params: readonly number[];
  readonly fields: readonly { readonly name: string; readonly dataTypeID: number }[];
}

type Parser = (value: string, typeId: number) => unknown;
type Serializer = (value: unknown) => string;

export interface StatementQueryOptions {
  readonly rowMode?: "array" | "object";
  readonly parsers?: Readonly<Record<number, Parser>>;
  readonly serializers?: Readonly<Record<number, Serializer>>;
}

/** The result of PGlite's `query`. */
export interface QueryResult {
  rows: unknown[];
  fields: { name: string; dataTypeID: number }[];
  affectedRows: number;
  command?: string;
  rowCount?: number;
}

/** The members of PGlite this relies on besides its public API: its two locks, as `query` takes them. */
interface PGliteInternals {
  _checkReady(): Promise<void>;
  _runExclusiveTransaction<T>(fn: () => Promise<T>): Promise<T>;
  _runExclusiveQuery<T>(fn: () => Promise<T>): Promise<T>;
}

interface BackendMessage {
  readonly name: string;
  readonly dataTypeIDs?: number[];
  readonly fields?: unknown[];
  readonly text?: string;
}

/** Statements kept per client at most; the least recently used one is closed beyond it. */
export const MAX_STATEMENTS = 256;

/** Names are unique in the process, so two wrappers of one client cannot collide. */
let counter = 0;

/** "cached plan must not change result type": the statement is parsed again. */
const PLAN_CHANGED = "0A000";

const concat = (parts: readonly Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
};

/** Whether a query can take the named path: options it understands, and no file to copy. */
export function takesNamedPath(options: Record<string, unknown> | undefined): boolean {
  if (!options) return true;
  return Object.entries(options).every(
    ([key, value]) =>
      value === undefined || key === "rowMode" || key === "parsers" || key === "serializers",
  );
}

/**
 * A `query` for one PGlite client (not for a transaction's: those run through PGlite's own, inside
 * the transaction's lock) that runs each text as a named prepared statement.
 */
export function namedStatements(client: PGlite, maxStatements = MAX_STATEMENTS) {
  const internals = client as unknown as PGliteInternals;
  const statements = new Map<string, Statement>();

  const exec = async (parts: readonly Uint8Array[]) =>
    (await client.execProtocol(concat(parts))).messages as unknown as BackendMessage[];

  /** Parses and describes a text under a new name, closing the least recently used beyond the cap. */
  async function prepare(text: string, stale?: Statement): Promise<Statement> {
    const closing = stale ? [serialize.close({ type: "S", name: stale.name })] : [];
    while (statements.size >= maxStatements) {
      const [oldest, old] = statements.entries().next().value!;
      statements.delete(oldest);
      closing.push(serialize.close({ type: "S", name: old.name }));
    }
    const name = `pglite_s${++counter}`;
    const messages = await exec([
      ...closing,
      serialize.parse({ name, text, types: [] }),
      serialize.describe({ type: "S", name }),
      serialize.sync(),
    ]);
    const described = messages.find((m) => m.name === "parameterDescription");
    const row = messages.find((m) => m.name === "rowDescription");
    const statement: Statement = {
      name,
      params: described?.dataTypeIDs ?? [],
      fields: ((row?.fields ?? []) as { name: string; dataTypeID: number }[]).map((f) => ({
        name: f.name,
        dataTypeID: f.dataTypeID,
      })),
    };
    statements.set(text, statement);
    return statement;
  }

  async function run(
    statement: Statement,
    params: readonly unknown[],
    options: StatementQueryOptions | undefined,
  ): Promise<QueryResult> {
    const serializers = client.serializers as Record<number, Serializer>;
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const type = statement.params[i]!;
      const write = options?.serializers?.[type] ?? serializers[type];
      return write ? write(value) : String(value);
    });
    const messages = await exec([
      serialize.bind({ statement: statement.name, values }),
      serialize.execute({}),
      serialize.sync(),
    ]);
    return resultOf(statement, messages, options);
  }

  function resultOf(
    statement: Statement,
    messages: readonly BackendMessage[],
    options: StatementQueryOptions | undefined,
  ): QueryResult {
    const parsers = (
      options?.parsers ? { ...client.parsers, ...options.parsers } : client.parsers
    ) as Record<number, Parser | undefined>;
    const { fields } = statement;
    const readers = fields.map((f) => parsers[f.dataTypeID]);
    const read = (value: unknown, i: number) =>
      value === null
        ? null
        : readers[i]
          ? readers[i](value as string, fields[i]!.dataTypeID)
          : value;
    const rows: unknown[] = [];
    let result: QueryResult | null = null;
    let affectedRows = 0;
    for (const m of messages) {
      if (m.name === "dataRow") {
        const values = m.fields!;
        rows.push(
          options?.rowMode === "array"
            ? values.map(read)
            : Object.fromEntries(values.map((v, i) => [fields[i]!.name, read(v, i)])),
        );
      } else if (m.name === "commandComplete") {
        const words = m.text!.split(" ");
        const command = words[0]!;
        const count = Number.parseInt(words[words.length - 1]!, 10);
        if (["INSERT", "UPDATE", "DELETE", "COPY", "MERGE"].includes(command))
          affectedRows += count;
        result = { rows, fields: fields.map((f) => ({ ...f })), command, affectedRows };
        if (!Number.isNaN(count)) result.rowCount = count;
      }
    }
    return result ?? { affectedRows: 0, rows: [], fields: [] };
  }

  return async function query(
    text: string,
    params: readonly unknown[] = [],
    options?: StatementQueryOptions,
  ): Promise<QueryResult> {
    await internals._checkReady();
    return internals._runExclusiveTransaction(() =>
      internals._runExclusiveQuery(async () => {
        try {
          const known = statements.get(text);
          if (!known) return await run(await prepare(text), params, options);
          // Most recently used last.
          statements.delete(text);
          statements.set(text, known);
          try {
            return await run(known, params, options);
          } catch (error) {
            // The failed run changed nothing: it runs once more, parsed anew.
            if ((error as { code?: string }).code !== PLAN_CHANGED) throw error;
            statements.delete(text);
            return await run(await prepare(text, known), params, options);
          }
        } catch (error) {
          // As PGlite's `query` reports a failed statement.
          if (error instanceof Error && "severity" in error)
            Object.assign(error, { query: text, params, queryOptions: options });
          throw error;
        }
      }),
    );
  };
}
