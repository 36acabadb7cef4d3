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
 * factor L of the symmetric matrix A, left-looking. AT is A transposed (row j of AT is column j
 * of A), U receives L transposed: U[k * n + i] = L[i][k]. Column j:
 * d = a_jj - sum_{k<j} l_jk^2, l_jj = sqrt(d), then l_ij = (a_ij - sum_{k<j} l_ik l_jk) / l_jj,
 * every sum subtracting its terms in increasing k, as linalg.ts does. Columns go two at a time
 * (j and j + 1 share the loads of rows i), rows eight at a time in f64x2 accumulators (one row per
 * lane), then one by one; column j + 1's last term (k = j) is subtracted once l_ij is known.
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
    ["j1", "i32"],
    ["i", "i32"],
    ["row", "i32"], // bytes of a row: 8 n
    ["uj", "i32"], // address of U[0][j]
    ["ujRow", "i32"], // address of U[j][0]
    ["aj", "i32"], // address of AT[j][0]
    ["p", "i32"], // address of U[k][i]
    ["q", "i32"], // address of U[k][j]
    ["qEnd", "i32"], // address of U[j][j]
    ["blockEnd", "i32"], // last i with i + 8 <= n
    ["d", "f64"],
    ["ljj", "f64"],
    ["lj1", "f64"],
    ["lj1j", "f64"],
    ["sc", "f64"],
    ["sc1", "f64"],
    ["xv", "v128"],
    ["y0", "v128"],
    ["y1", "v128"],
    ["tv", "v128"],
    ...Array.from({ length: 8 }, (_, k) => [`s${k}`, "v128"] as const),
  ],
  body: (f) => {
    const { get, set } = f;
    /** for k < j: body, with q = U[k][j] and p = U[k][i] (p from `p0`, when given). */
    const overK = (p0: Code | null, ...body: Code[]): Code => [
      ...(p0 ? set("p", p0) : []),
      ...f.forRange(
        "q",
        get("uj"),
        get("qEnd"),
        get("row"),
        ...body,
        p0 ? f.inc("p", get("row")) : [],
      ),
    ];
    const aT = (r: Code, c: Code): Code => at(get("AT"), add(mul(r, get("n")), c));
    const pivot = (target: string): Code[] => [
      f.when(op.eqz(op.fGt(get("d"), get("floor"))), op.ret(i32(0))),
      set(target, op.fSqrt(get("d"))),
    ];
    return [
      set("row", mul(get("n"), i32(8))),
      set("blockEnd", op.sub(get("n"), i32(8))),
      f.forRange(
        "j",
        i32(0),
        get("n"),
        i32(2),
        set("j1", add(get("j"), i32(1))),
        set("uj", at(get("U"), get("j"))),
        set("ujRow", add(get("U"), mul(get("j"), get("row")))),
        set("qEnd", at(get("ujRow"), get("j"))),
        set("aj", add(get("AT"), mul(get("j"), get("row")))),
        // Pivot j: d = a_jj - sum_k l_jk^2.
        set("d", fLoad(aT(get("j"), get("j")))),
        overK(
          null,
          set("sc", fLoad(get("q"))),
          set("d", op.fSub(get("d"), fMul(get("sc"), get("sc")))),
        ),
        ...pivot("ljj"),
        fStore(get("qEnd"), get("ljj")),
        f.when(
          op.ltS(get("j1"), get("n")),
          // l_{j+1, j}, then pivot j + 1 (its last term is l_{j+1, j}^2).
          set("sc", fLoad(aT(get("j"), get("j1")))),
          overK(null, set("sc", op.fSub(get("sc"), fMul(fLoad(get("q"), 8), fLoad(get("q")))))),
          set("lj1j", op.fDiv(get("sc"), get("ljj"))),
          fStore(get("qEnd"), get("lj1j"), 8),
          set("d", fLoad(aT(get("j1"), get("j1")))),
          overK(
            null,
            set("sc", fLoad(get("q"), 8)),
            set("d", op.fSub(get("d"), fMul(get("sc"), get("sc")))),
          ),
          set("d", op.fSub(get("d"), fMul(get("lj1j"), get("lj1j")))),
          ...pivot("lj1"),
          fStore(add(get("qEnd"), get("row")), get("lj1"), 8),
          // Rows j + 2 .. n - 1, eight at a time.
          set("i", add(get("j"), i32(2))),
          [0x02, 0x40],
          op.ltS(get("blockEnd"), get("i")),
          [0x0d, 0],
          [0x03, 0x40],
          ...[0, 1, 2, 3].flatMap((r) => [
            set(`s${r}`, vLoad(at(get("aj"), get("i")), 16 * r)),
            set(`s${4 + r}`, vLoad(at(add(get("aj"), get("row")), get("i")), 16 * r)),
          ]),
          overK(
            at(get("U"), get("i")),
            set("y0", vSplatLoad(get("q"))),
            set("y1", vSplatLoad(get("q"), 8)),
            ...[0, 1, 2, 3].flatMap((r) => [
              set("xv", vLoad(get("p"), 16 * r)),
              set(`s${r}`, op.vSub(get(`s${r}`), vMul(get("xv"), get("y0")))),
              set(`s${4 + r}`, op.vSub(get(`s${4 + r}`), vMul(get("xv"), get("y1")))),
            ]),
          ),
          set("y0", op.vSplat(get("ljj"))),
          set("y1", op.vSplat(get("lj1"))),
          set("xv", op.vSplat(get("lj1j"))),
          ...[0, 1, 2, 3].flatMap((r) => [
            set("tv", op.vDiv(get(`s${r}`), get("y0"))),
            vStore(at(get("ujRow"), get("i")), get("tv"), 16 * r),
            set(`s${4 + r}`, op.vSub(get(`s${4 + r}`), vMul(get("tv"), get("xv")))),
            vStore(
              at(add(get("ujRow"), get("row")), get("i")),
              op.vDiv(get(`s${4 + r}`), get("y1")),
              16 * r,
            ),
          ]),
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
            set("sc", fLoad(at(get("aj"), get("i")))),
            set("sc1", fLoad(at(add(get("aj"), get("row")), get("i")))),
            overK(
              at(get("U"), get("i")),
              set("sc", op.fSub(get("sc"), fMul(fLoad(get("p")), fLoad(get("q"))))),
              set("sc1", op.fSub(get("sc1"), fMul(fLoad(get("p")), fLoad(get("q"), 8)))),
            ),
            set("sc", op.fDiv(get("sc"), get("ljj"))),
            fStore(at(get("ujRow"), get("i")), get("sc")),
            set("sc1", op.fSub(get("sc1"), fMul(get("sc"), get("lj1j")))),
            fStore(at(add(get("ujRow"), get("row")), get("i")), op.fDiv(get("sc1"), get("lj1"))),
          ),
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
