/**
 * The WebAssembly kernels of the engine, written with the assembler beside this file. Each has a
 * plain TypeScript twin in ../kernels.ts that performs the same floating-point operations in the
 * same order (no fused multiply-add exists in either), so both give bit-identical results.
 *
 * Packed panels (the layout of `syrk`): the centred returns of a t x n window, cut into panels
 * of 4 assets; panel p holds, for each day k, the 4 values of assets 4p..4p+3 (zeros past n):
 * element (k, 4p + c) at f64 index p * 4t + 4k + c.
 */
import { assemble, op, type Code, type FunctionDef } from "./assembler.ts";

const { i32, add, mul, at, fLoad, fStore, fMul, vLoad, vStore, vSplatLoad, vAdd, vMul } = op;

/**
 * syrk(P, panels, t, kc, C, ldc): for every pair of panels I <= J, the 4 x 4 tile
 * G[4I + c][4J + d] = sum_k P(k, 4I + c) P(k, 4J + d) is ADDED to C, stored transposed:
 * C[(4J + d) * ldc + 4I + c] (so C receives the lower triangle, tile by tile). Days are taken in
 * chunks of kc (the panels of one chunk stay in cache); within a tile each sum runs over k in
 * increasing order, one chunk after the other. Register tile: 8 f64x2 accumulators (lanes c = 0,1
 * and c = 2,3, for each d), days unrolled by two.
 */
const syrk: FunctionDef = {
  name: "syrk",
  params: [
    ["P", "i32"],
    ["panels", "i32"],
    ["t", "i32"],
    ["kc", "i32"],
    ["C", "i32"],
    ["ldc", "i32"],
  ],
  locals: [
    ["kb", "i32"],
    ["kend", "i32"],
    ["I", "i32"],
    ["J", "i32"],
    ["stride", "i32"], // bytes of one panel: 32 t
    ["row", "i32"], // bytes of one row of C: 8 ldc
    ["pa", "i32"],
    ["a", "i32"],
    ["aEnd", "i32"],
    ["aPair", "i32"],
    ["b", "i32"],
    ["c0", "i32"],
    ["x01", "v128"],
    ["x23", "v128"],
    ["y", "v128"],
    ...Array.from({ length: 8 }, (_, k) => [`s${k}`, "v128"] as const),
  ],
  body: (f) => {
    const { get, set } = f;
    const rowAddr = (d: number): Code =>
      d === 0 ? get("c0") : add(get("c0"), mul(get("row"), i32(d)));
    // One day: x = P(k, 4I..4I+3) as two vectors, y = P(k, 4J + d) in both lanes.
    const step = (off: number): Code[] => [
      set("x01", vLoad(get("a"), off)),
      set("x23", vLoad(get("a"), off + 16)),
      ...[0, 1, 2, 3].flatMap((d) => [
        set("y", vSplatLoad(get("b"), off + 8 * d)),
        set(`s${2 * d}`, vAdd(get(`s${2 * d}`), vMul(get("x01"), get("y")))),
        set(`s${2 * d + 1}`, vAdd(get(`s${2 * d + 1}`), vMul(get("x23"), get("y")))),
      ]),
    ];
    return [
      set("stride", mul(get("t"), i32(32))),
      set("row", mul(get("ldc"), i32(8))),
      f.forRange(
        "kb",
        i32(0),
        get("t"),
        get("kc"),
        set("kend", add(get("kb"), get("kc"))),
        f.when(op.ltS(get("t"), get("kend")), set("kend", get("t"))),
        f.forRange(
          "I",
          i32(0),
          get("panels"),
          i32(1),
          set("pa", add(get("P"), mul(get("I"), get("stride")))),
          f.forRange(
            "J",
            get("I"),
            get("panels"),
            i32(1),
            // C tile address: row 4J, column 4I.
            set(
              "c0",
              at(get("C"), add(mul(mul(get("J"), i32(4)), get("ldc")), mul(get("I"), i32(4)))),
            ),
            ...[0, 1, 2, 3].flatMap((d) => [
              set(`s${2 * d}`, vLoad(rowAddr(d))),
              set(`s${2 * d + 1}`, vLoad(rowAddr(d), 16)),
            ]),
            set("a", add(get("pa"), mul(get("kb"), i32(32)))),
            set("aEnd", add(get("pa"), mul(get("kend"), i32(32)))),
            // Last start of a full pair of days.
            set("aPair", add(get("a"), mul(op.sub(get("kend"), get("kb")), i32(32)))),
            set("aPair", op.sub(get("aPair"), i32(32))),
            set("b", add(add(get("P"), mul(get("J"), get("stride"))), mul(get("kb"), i32(32)))),
            // Pairs of days while a + 32 < aEnd, then the odd day.
            [0x02, 0x40],
            op.geS(get("a"), get("aPair")),
            [0x0d, 0],
            [0x03, 0x40],
            ...step(0),
            ...step(32),
            f.inc("a", i32(64)),
            f.inc("b", i32(64)),
            op.ltS(get("a"), get("aPair")),
            [0x0d, 0],
            [0x0b, 0x0b],
            f.when(op.ltS(get("a"), get("aEnd")), ...step(0)),
            ...[0, 1, 2, 3].flatMap((d) => [
              vStore(rowAddr(d), get(`s${2 * d}`)),
              vStore(rowAddr(d), get(`s${2 * d + 1}`), 16),
            ]),
          ),
        ),
      ),
    ];
  },
};

/**
 * cholesky(AT, U, n, floor) -> 1, or 0 when a pivot is not above `floor`: the lower Cholesky
 * factor L of the symmetric matrix A, left-looking, column by column. AT is A transposed (row j
 * of AT is column j of A), U receives L transposed: U[k * n + i] = L[i][k]. Column j:
 * d = a_jj - sum_{k<j} l_jk^2, l_jj = sqrt(d), then l_ij = (a_ij - sum_{k<j} l_ik l_jk) / l_jj,
 * every sum subtracting its terms in increasing k, as in linalg.ts: 8 rows at a time in four
 * f64x2 accumulators (one row per lane), then the remaining rows one by one.
 */
const cholesky: FunctionDef = {
  name: "cholesky",
  params: [
    ["AT", "i32"],
    ["U", "i32"],
    ["n", "i32"],
    ["floor", "f64"],
  ],
  result: "i32",
  locals: [
    ["j", "i32"],
    ["i", "i32"],
    ["k", "i32"],
    ["row", "i32"], // bytes of a row: 8 n
    ["uj", "i32"], // address of U[0][j]
    ["ujRow", "i32"], // address of U[j][0]
    ["p", "i32"], // address of U[k][i]
    ["q", "i32"], // address of U[k][j]
    ["qEnd", "i32"], // address of U[j][j]
    ["blockEnd", "i32"], // last i + 8 <= n
    ["d", "f64"],
    ["ljj", "f64"],
    ["y", "v128"],
    ["lv", "v128"],
    ["s0", "v128"],
    ["s1", "v128"],
    ["s2", "v128"],
    ["s3", "v128"],
    ["sc", "f64"],
  ],
  body: (f) => {
    const { get, set } = f;
    return [
      set("row", mul(get("n"), i32(8))),
      set("blockEnd", op.sub(get("n"), i32(8))),
      f.forRange(
        "j",
        i32(0),
        get("n"),
        i32(1),
        set("uj", at(get("U"), get("j"))),
        set("ujRow", add(get("U"), mul(get("j"), get("row")))),
        set("qEnd", at(get("ujRow"), get("j"))),
        // d = a_jj - sum_k l_jk^2
        set("d", fLoad(at(get("AT"), add(mul(get("j"), get("n")), get("j"))))),
        f.forRange(
          "q",
          get("uj"),
          get("qEnd"),
          get("row"),
          set("sc", fLoad(get("q"))),
          set("d", op.fSub(get("d"), fMul(get("sc"), get("sc")))),
        ),
        f.when(op.eqz(op.fGt(get("d"), get("floor"))), op.ret(i32(0))),
        set("ljj", op.fSqrt(get("d"))),
        fStore(get("qEnd"), get("ljj")),
        set("lv", op.vSplat(get("ljj"))),
        set("i", add(get("j"), i32(1))),
        // Blocks of 8 rows.
        [0x02, 0x40],
        op.ltS(get("blockEnd"), get("i")),
        [0x0d, 0],
        [0x03, 0x40],
        ...[0, 1, 2, 3].map((r) =>
          set(`s${r}`, vLoad(at(get("AT"), add(mul(get("j"), get("n")), get("i"))), 16 * r)),
        ),
        set("p", at(get("U"), get("i"))),
        f.forRange(
          "q",
          get("uj"),
          get("qEnd"),
          get("row"),
          set("y", vSplatLoad(get("q"))),
          ...[0, 1, 2, 3].map((r) =>
            set(`s${r}`, op.vSub(get(`s${r}`), vMul(vLoad(get("p"), 16 * r), get("y")))),
          ),
          f.inc("p", get("row")),
        ),
        ...[0, 1, 2, 3].map((r) =>
          vStore(at(get("ujRow"), get("i")), op.vDiv(get(`s${r}`), get("lv")), 16 * r),
        ),
        f.inc("i", i32(8)),
        op.geS(get("blockEnd"), get("i")),
        [0x0d, 0],
        [0x0b, 0x0b],
        // The rows left, one by one.
        f.forRange(
          "i",
          get("i"),
          get("n"),
          i32(1),
          set("sc", fLoad(at(get("AT"), add(mul(get("j"), get("n")), get("i"))))),
          set("p", at(get("U"), get("i"))),
          f.forRange(
            "q",
            get("uj"),
            get("qEnd"),
            get("row"),
            set("sc", op.fSub(get("sc"), fMul(fLoad(get("p")), fLoad(get("q"))))),
            f.inc("p", get("row")),
          ),
          fStore(at(get("ujRow"), get("i")), op.fDiv(get("sc"), get("ljj"))),
        ),
      ),
      i32(1),
    ];
  },
};

export const KERNEL_FUNCTIONS = [syrk, cholesky] as const;

/** The module's bytes (assembled once, when the engine loads). */
export function kernelModuleBytes(): Uint8Array {
  return assemble(KERNEL_FUNCTIONS);
}
