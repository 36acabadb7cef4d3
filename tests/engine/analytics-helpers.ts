// Shared helpers of the analytics (risk) engine tests: tolerance checks, reference figures, finiteness.
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect } from "vitest";

/** |actual - expected| <= abs + rel * |expected|, with a message naming the value. */
export function expectClose(
  actual: number,
  expected: number,
  rel: number,
  abs = 0,
  what = "",
): void {
  const tol = abs + rel * Math.abs(expected);
  if (!(Math.abs(actual - expected) <= tol))
    expect.fail(
      `${what} ${actual} differs from ${expected} by ${Math.abs(actual - expected)} (> ${tol})`,
    );
}

export function expectAllClose(
  actual: ArrayLike<number>,
  expected: ArrayLike<number>,
  rel: number,
  abs = 0,
  what = "",
): void {
  expect(actual.length, `${what} length`).toBe(expected.length);
  for (let i = 0; i < expected.length; i++)
    expectClose(actual[i]!, expected[i]!, rel, abs, `${what}[${i}]`);
}

export function loadReference<T>(name: string): T {
  return JSON.parse(readFileSync(path.join(import.meta.dirname, "reference", name), "utf8")) as T;
}

/** Every number of a nested result is finite (no NaN or Infinity in outputs). */
export function expectAllFinite(value: unknown, where = "result"): void {
  if (typeof value === "number") {
    if (!Number.isFinite(value)) expect.fail(`${where} is ${value}`);
  } else if (ArrayBuffer.isView(value) && !(value instanceof DataView)) {
    const arr = value as unknown as ArrayLike<number>;
    for (let i = 0; i < arr.length; i++)
      if (!Number.isFinite(arr[i]!)) expect.fail(`${where}[${i}] is ${arr[i]}`);
  } else if (Array.isArray(value)) {
    value.forEach((v, i) => expectAllFinite(v, `${where}[${i}]`));
  } else if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) expectAllFinite(v, `${where}.${k}`);
  }
}

/** A deep copy of typed arrays and plain objects, to check that a call did not mutate its inputs. */
export function snapshot<T>(value: T): T {
  return structuredClone(value);
}
