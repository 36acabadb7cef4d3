import { afterEach, describe, expect, it, vi } from "vitest";
import { createLogger } from "../../src/server/logger.ts";
import type { LogLevel } from "../../src/server/config.ts";

function capture(level: LogLevel, base?: Record<string, unknown>) {
  const lines: string[] = [];
  const logger = createLogger(level, base, (line) => lines.push(line));
  const entries = () => lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  return { logger, lines, entries };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("createLogger", () => {
  it("writes one JSON object per call with level, msg, time and the fields", () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-03-04T05:06:07.089Z"));
    const { logger, lines, entries } = capture("debug");

    logger.info("listening", { port: 3000, url: "http://x" });

    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain("\n");
    expect(entries()[0]).toEqual({
      time: "2026-03-04T05:06:07.089Z",
      level: "info",
      msg: "listening",
      port: 3000,
      url: "http://x",
    });
  });

  it("labels each method with its level", () => {
    const { logger, entries } = capture("debug");
    logger.debug("a");
    logger.info("b");
    logger.warn("c");
    logger.error("d");
    expect(entries().map((e) => [e.level, e.msg])).toEqual([
      ["debug", "a"],
      ["info", "b"],
      ["warn", "c"],
      ["error", "d"],
    ]);
  });

  it.each([
    ["debug", ["debug", "info", "warn", "error"]],
    ["info", ["info", "warn", "error"]],
    ["warn", ["warn", "error"]],
    ["error", ["error"]],
    ["silent", []],
  ] as const)("at level %s writes only %j", (level, expected) => {
    const { logger, entries } = capture(level);
    logger.debug("m");
    logger.info("m");
    logger.warn("m");
    logger.error("m");
    expect(entries().map((e) => e.level)).toEqual(expected);
  });

  it("includes the base fields in every line", () => {
    const { logger, entries } = capture("info", { service: "api", edition: "ht" });
    logger.info("x");
    expect(entries()[0]).toMatchObject({ service: "api", edition: "ht", msg: "x" });
  });

  it("merges a child's fields with its parent's, the call's fields winning", () => {
    const { logger, entries } = capture("info", { service: "api", edition: "ht" });
    const child = logger.child({ requestId: "r1", edition: "tt" });
    child.info("handled", { status: 200 });
    child.child({ step: 2 }).warn("deeper", { requestId: "r2" });
    logger.info("parent");

    const [first, second, third] = entries();
    expect(first).toMatchObject({
      service: "api",
      edition: "tt",
      requestId: "r1",
      status: 200,
      msg: "handled",
    });
    expect(second).toMatchObject({
      service: "api",
      edition: "tt",
      requestId: "r2",
      step: 2,
      level: "warn",
    });
    expect(third).not.toHaveProperty("requestId");
    expect(third).toMatchObject({ edition: "ht" });
  });

  it("keeps the child at its parent's level", () => {
    const { logger, entries } = capture("warn");
    const child = logger.child({ a: 1 });
    child.info("hidden");
    child.error("shown");
    expect(entries().map((e) => e.msg)).toEqual(["shown"]);
  });

  it("serialises Error values with their name and message", () => {
    const { logger, entries } = capture("info");
    const error = new TypeError("boom");
    logger.error("failed", { error, nested: { cause: new RangeError("deep") } });
    const entry = entries()[0] as {
      error: Record<string, unknown>;
      nested: { cause: Record<string, unknown> };
    };
    expect(entry.error).toMatchObject({ name: "TypeError", message: "boom" });
    expect(entry.error.stack).toEqual(expect.stringContaining("boom"));
    expect(entry.nested.cause).toMatchObject({ name: "RangeError", message: "deep" });
  });

  it("writes to stdout by default", () => {
    const write = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    try {
      createLogger("info").info("to stdout", { n: 1 });
      expect(write).toHaveBeenCalledTimes(1);
      const line = String(write.mock.calls[0]?.[0]);
      expect(line.endsWith("\n")).toBe(true);
      expect(JSON.parse(line)).toMatchObject({ level: "info", msg: "to stdout", n: 1 });
    } finally {
      write.mockRestore();
    }
  });
});
