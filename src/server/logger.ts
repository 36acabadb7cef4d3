import type { LogLevel } from "./config.ts";

export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  child(fields: LogFields): Logger;
}

const rank: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };

/**
 * What a log line must never carry, whatever a caller passes (docs/operations.md, "Security"):
 * password hashes, email addresses, bearer tokens and anything shaped like a token or a token's
 * hash (40 or more URL-safe characters in a row; request ids, UUIDs of 36, stay readable).
 */
const secrets: readonly (readonly [RegExp, string])[] = [
  [/\$argon2(?:id|i|d)\$[^\s"\\]*/g, "[hash]"],
  [/Bearer\s+[\w.~+/-]+=*/gi, "Bearer [token]"],
  [/[^\s"'<>()[\]{},;:\\/@]+@[^\s"'<>()[\]{},;:\\/@]+\.[A-Za-z]{2,}/g, "[email]"],
  [/(?<![\w-])[A-Za-z0-9_-]{40,}(?![\w-])/g, "[secret]"],
];

export function redactSecrets(line: string): string {
  return secrets.reduce((out, [pattern, mask]) => out.replace(pattern, mask), line);
}

/** One JSON object per line on stdout, so any log collector can index the fields. */
export function createLogger(
  level: LogLevel,
  base: LogFields = {},
  write: (line: string) => void = (line) => process.stdout.write(line + "\n"),
): Logger {
  const log = (at: Exclude<LogLevel, "silent">, msg: string, fields?: LogFields) => {
    if (rank[at] < rank[level]) return;
    const entry = { time: new Date().toISOString(), level: at, msg, ...base, ...fields };
    write(redactSecrets(JSON.stringify(entry, errorReplacer)));
  };
  return {
    debug: (msg, fields) => log("debug", msg, fields),
    info: (msg, fields) => log("info", msg, fields),
    warn: (msg, fields) => log("warn", msg, fields),
    error: (msg, fields) => log("error", msg, fields),
    child: (fields) => createLogger(level, { ...base, ...fields }, write),
  };
}

function errorReplacer(_key: string, value: unknown): unknown {
  return value instanceof Error ? errorFields(value, 0) : value;
}

/**
 * An error as a log carries it: name, message, the database's error code and the call frames,
 * and its cause. A failed query's parameters (the values a request sent: emails, hashes, tokens)
 * and a value quoted in a database message (`invalid input syntax for type integer: "…"`) are
 * left out; the statement itself has none.
 */
function errorFields(error: Error, depth: number): Record<string, unknown> {
  const code = (error as { code?: unknown }).code;
  const cause = error.cause;
  return {
    name: error.name,
    message: withoutValues(error.message),
    ...(typeof code === "string" ? { code } : {}),
    stack: [
      `${error.name}: ${withoutValues(error.message)}`,
      ...(error.stack ?? "").split("\n").filter((l) => /^\s+at /.test(l)),
    ].join("\n"),
    ...(cause instanceof Error && depth < 3 ? { cause: errorFields(cause, depth + 1) } : {}),
  };
}

const withoutValues = (message: string): string =>
  message
    .replace(/\nparams: [\s\S]*$/, "\nparams: [left out]")
    .replace(/: "[^"\n]*"/g, ': "[value]"');
