/**
 * A small WebAssembly assembler: the engine's kernels (kernels.ts beside this file) are written
 * with these helpers and turned into a module's bytes when the engine loads. No build step, no
 * file to read, no dependency: the source is this TypeScript (docs/decisions.md, "Engine
 * kernels"). Only what the kernels use is here: i32 and f64 scalars, f64x2 SIMD, structured
 * loops, one exported memory.
 */

/** Bytes of an instruction sequence. */
export type Code = readonly number[];
export type ValType = "i32" | "f64" | "v128";

const TYPE_CODE: Record<ValType, number> = { i32: 0x7f, f64: 0x7c, v128: 0x7b };

export function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n !== 0) b |= 0x80;
    out.push(b);
  } while (n !== 0);
  return out;
}

export function sleb(n: number): number[] {
  const out: number[] = [];
  for (;;) {
    const b = n & 0x7f;
    n >>= 7;
    if ((n === 0 && (b & 0x40) === 0) || (n === -1 && (b & 0x40) !== 0)) {
      out.push(b);
      return out;
    }
    out.push(b | 0x80);
  }
}

const name = (s: string) => {
  const bytes = Array.from(new TextEncoder().encode(s));
  return [...uleb(bytes.length), ...bytes];
};
const vec = (items: readonly Code[]) => [...uleb(items.length), ...items.flat()];
const section = (id: number, body: Code) => [id, ...uleb(body.length), ...body];
const cat = (...parts: readonly Code[]): number[] => parts.flat();
const simd = (op: number, ...rest: number[]) => [0xfd, ...uleb(op), ...rest];
/** Memory argument: alignment (log2 bytes) and a constant byte offset. */
const mem = (align: number, offset: number) => [...uleb(align), ...uleb(offset)];

/** The instructions the kernels use; each takes its operands as code that pushes them. */
export const op = {
  i32: (v: number): Code => [0x41, ...sleb(v | 0)],
  f64: (v: number): Code => {
    const b = new Uint8Array(new Float64Array([v]).buffer);
    return [0x44, ...b];
  },
  add: (a: Code, b: Code): Code => cat(a, b, [0x6a]),
  sub: (a: Code, b: Code): Code => cat(a, b, [0x6b]),
  mul: (a: Code, b: Code): Code => cat(a, b, [0x6c]),
  shl: (a: Code, b: Code): Code => cat(a, b, [0x74]),
  ltS: (a: Code, b: Code): Code => cat(a, b, [0x48]),
  geS: (a: Code, b: Code): Code => cat(a, b, [0x4e]),
  /** Byte address of the f64 number `index` of an array starting at byte `base`. */
  at: (base: Code, index: Code): Code => cat(base, index, [0x41, 3, 0x74, 0x6a]),
  fAdd: (a: Code, b: Code): Code => cat(a, b, [0xa0]),
  fSub: (a: Code, b: Code): Code => cat(a, b, [0xa1]),
  fMul: (a: Code, b: Code): Code => cat(a, b, [0xa2]),
  fDiv: (a: Code, b: Code): Code => cat(a, b, [0xa3]),
  fSqrt: (a: Code): Code => cat(a, [0x9f]),
  fGt: (a: Code, b: Code): Code => cat(a, b, [0x64]),
  eqz: (a: Code): Code => cat(a, [0x45]),
  ret: (v: Code): Code => cat(v, [0x0f]),
  fLoad: (addr: Code, offset = 0): Code => cat(addr, [0x2b], mem(3, offset)),
  fStore: (addr: Code, v: Code, offset = 0): Code => cat(addr, v, [0x39], mem(3, offset)),
  vLoad: (addr: Code, offset = 0): Code => cat(addr, simd(0x00, ...mem(3, offset))),
  vStore: (addr: Code, v: Code, offset = 0): Code => cat(addr, v, simd(0x0b, ...mem(3, offset))),
  /** Loads one f64 into both lanes. */
  vSplatLoad: (addr: Code, offset = 0): Code => cat(addr, simd(0x0a, ...mem(3, offset))),
  vSplat: (v: Code): Code => cat(v, simd(0x14)),
  vZero: (): Code => simd(0x0c, ...new Array<number>(16).fill(0)),
  vLane: (v: Code, lane: 0 | 1): Code => cat(v, simd(0x21, lane)),
  vAdd: (a: Code, b: Code): Code => cat(a, b, simd(0xf0)),
  vSub: (a: Code, b: Code): Code => cat(a, b, simd(0xf1)),
  vMul: (a: Code, b: Code): Code => cat(a, b, simd(0xf2)),
  vDiv: (a: Code, b: Code): Code => cat(a, b, simd(0xf3)),
};

export interface FunctionBuilder {
  get(local: string): Code;
  set(local: string, v: Code): Code;
  tee(local: string, v: Code): Code;
  /** local += step (i32). */
  inc(local: string, step: Code): Code;
  /**
   * for (i = from; i < to; i += step) body — `to` is evaluated before the loop and at each test,
   * so it must be cheap (a local or a constant).
   */
  forRange(i: string, from: Code, to: Code, step: Code, ...body: Code[]): Code;
  /** if (cond) then (no else). */
  when(cond: Code, ...then: Code[]): Code;
}

export interface FunctionDef {
  readonly name: string;
  readonly params: readonly (readonly [string, ValType])[];
  readonly result?: ValType;
  readonly locals: readonly (readonly [string, ValType])[];
  readonly body: (f: FunctionBuilder) => Code[];
}

function encodeFunction(def: FunctionDef): { type: number[]; code: number[] } {
  const index = new Map<string, number>();
  for (const [n] of [...def.params, ...def.locals]) {
    if (index.has(n)) throw new Error(`wasm assembler: local ${n} declared twice`);
    index.set(n, index.size);
  }
  const idx = (n: string) => {
    const i = index.get(n);
    if (i === undefined) throw new Error(`wasm assembler: unknown local ${n} in ${def.name}`);
    return uleb(i);
  };
  const f: FunctionBuilder = {
    get: (n) => [0x20, ...idx(n)],
    set: (n, v) => cat(v, [0x21], idx(n)),
    tee: (n, v) => cat(v, [0x22], idx(n)),
    inc: (n, step) => f.set(n, op.add(f.get(n), step)),
    forRange: (i, from, to, step, ...body) =>
      cat(
        f.set(i, from),
        [0x02, 0x40], // block
        op.geS(f.get(i), to),
        [0x0d, 0], // br_if 0: empty range
        [0x03, 0x40], // loop
        ...body,
        f.inc(i, step),
        op.ltS(f.get(i), to),
        [0x0d, 0], // br_if 0: next iteration
        [0x0b, 0x0b], // end loop, end block
      ),
    when: (cond, ...then) => cat(cond, [0x04, 0x40], ...then, [0x0b]),
  };
  const body = cat(...def.body(f));
  // Locals grouped one entry per declaration (the format allows runs of one type).
  const locals = vec(def.locals.map(([, t]) => [1, TYPE_CODE[t]]));
  const fn = cat(locals, body, [0x0b]);
  const type = cat(
    [0x60],
    vec(def.params.map(([, t]) => [TYPE_CODE[t]])),
    def.result ? [1, TYPE_CODE[def.result]] : [0],
  );
  return { type, code: [...uleb(fn.length), ...fn] };
}

/** A module of functions (all exported by name) and one memory exported as "memory". */
export function assemble(functions: readonly FunctionDef[], initialPages = 1): Uint8Array {
  const encoded = functions.map(encodeFunction);
  const bytes = cat(
    [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    section(1, vec(encoded.map((e) => e.type))),
    section(3, vec(encoded.map((_, i) => uleb(i)))),
    section(5, vec([[0x00, ...uleb(initialPages)]])),
    section(
      7,
      vec([
        cat(name("memory"), [0x02, 0]),
        ...functions.map((d, i) => cat(name(d.name), [0x00], uleb(i))),
      ]),
    ),
    section(10, vec(encoded.map((e) => e.code))),
  );
  return Uint8Array.from(bytes);
}
