/**
 * Dense kernels of the covariance estimators: the cross products X'X of a (centred, optionally
 * row-weighted) returns window, by a blocked, register-tiled kernel in WebAssembly SIMD
 * (wasm/kernels.ts, assembled when this module loads) or, where WebAssembly is missing, its
 * TypeScript twin below. Both perform the same operations in the same order: results are
 * bit-identical, and each entry is the plain sum over the days in increasing order.
 * docs/analytics.md, "Covariance" (kernels); docs/decisions.md, "Engine kernels".
 */
import { kernelModuleBytes } from "./wasm/kernels.ts";

interface KernelExports {
  readonly memory: WebAssembly.Memory;
  syrk(p: number, panels: number, t: number, kc: number, c: number, ldc: number): void;
  cholesky(at: number, u: number, n: number, floor: number): number;
}

/** Days per chunk: 4 assets x 128 days x 8 bytes = 4 kB per panel, all panels of a chunk in L2. */
const DAYS_PER_CHUNK = 128;

function instantiate(): KernelExports | null {
  try {
    if (typeof WebAssembly !== "object") return null;
    const module = new WebAssembly.Module(kernelModuleBytes() as Uint8Array<ArrayBuffer>);
    return new WebAssembly.Instance(module, {}).exports as unknown as KernelExports;
  } catch {
    return null; // no WebAssembly SIMD here: the TypeScript kernels give the same results
  }
}

const wasmKernels = instantiate();
let useWasm = wasmKernels !== null;

/** Which implementation runs: "wasm" when WebAssembly SIMD instantiated, else "js". */
export function kernelBackend(): "wasm" | "js" {
  return useWasm ? "wasm" : "js";
}

/** Tests and benchmarks: force the TypeScript kernels ("js") or go back to WebAssembly. */
export function setKernelBackend(backend: "wasm" | "js"): void {
  useWasm = backend === "wasm" && wasmKernels !== null;
}

/**
 * Float64 views of scratch memory: the wasm memory (grown when needed; it is kept for the next
 * call) or, when the TypeScript kernels run or the memory cannot grow that far, plain arrays.
 */
function scratch(
  packedLength: number,
  outLength: number,
): { p: Float64Array; c: Float64Array; wasm: KernelExports | null } {
  const bytes = (packedLength + outLength) * 8;
  if (useWasm && wasmKernels) {
    const memory = wasmKernels.memory;
    const missing = bytes - memory.buffer.byteLength;
    try {
      if (missing > 0) memory.grow(Math.ceil(missing / 65536));
      const buffer = memory.buffer;
      return {
        p: new Float64Array(buffer, 0, packedLength),
        c: new Float64Array(buffer, packedLength * 8, outLength),
        wasm: wasmKernels,
      };
    } catch {
      // past the 4 GB of a wasm32 memory: the twins below give the same results
    }
  }
  return { p: new Float64Array(packedLength), c: new Float64Array(outLength), wasm: null };
}

/**
 * G = scale * X'X for the t x n window X with x(k, i) = (data[k * n + i] - center[i]) *
 * rowScale[k] (center and rowScale optional), data row-major as in a ReturnsPanel. Returns the
 * full symmetric n x n matrix, row-major; each entry is scale times the sum over k in increasing
 * order of the products x(k, i) x(k, j).
 */
export function crossProductsOfRows(
  data: Float64Array,
  n: number,
  t: number,
  scale: number,
  center?: Float64Array,
  rowScale?: Float64Array,
): Float64Array {
  const panels = (n + 3) >> 2;
  const ldc = panels * 4;
  const { p, c, wasm } = scratch(panels * 4 * t, ldc * ldc);
  // Pack: panel q, day k, lane l at q * 4t + 4k + l; zeros past n.
  for (let q = 0; q < panels; q++) {
    const base = q * 4 * t;
    const i0 = q * 4;
    const width = Math.min(4, n - i0);
    for (let k = 0; k < t; k++) {
      const src = k * n + i0;
      const dst = base + 4 * k;
      const w = rowScale ? rowScale[k]! : 1;
      for (let l = 0; l < 4; l++) {
        if (l >= width) {
          p[dst + l] = 0;
          continue;
        }
        const v = center ? data[src + l]! - center[i0 + l]! : data[src + l]!;
        p[dst + l] = rowScale ? v * w : v;
      }
    }
  }
  c.fill(0);
  if (wasm) wasm.syrk(p.byteOffset, panels, t, DAYS_PER_CHUNK, c.byteOffset, ldc);
  else syrkJs(p, panels, t, DAYS_PER_CHUNK, c, ldc);
  // c holds the lower triangle (row >= column, tile-wise); mirror it, scaled.
  const out = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    const ci = i * ldc;
    for (let j = 0; j <= i; j++) {
      const v = c[ci + j]! * scale;
      out[i * n + j] = v;
      out[j * n + i] = v;
    }
  }
  return out;
}

/**
 * The lower Cholesky factor of the n x n matrix `a` (row-major, lower triangle read) by the wasm
 * kernel, row-major with zeros above the diagonal; null when a pivot is not above `floor`;
 * undefined when the wasm kernels are not in use (linalg.ts's cholesky, its twin, then runs).
 */
export function choleskyKernel(
  a: Float64Array,
  n: number,
  floor: number,
): Float64Array | null | undefined {
  if (!useWasm || !wasmKernels) return undefined;
  const { p: at, c: u, wasm } = scratch(n * n, n * n);
  if (!wasm) return undefined;
  for (let i = 0; i < n; i++) {
    const bi = i * n;
    for (let j = 0; j <= i; j++) at[j * n + i] = a[bi + j]!;
  }
  if (wasm.cholesky(at.byteOffset, u.byteOffset, n, floor) === 0) return null;
  const l = new Float64Array(n * n);
  for (let k = 0; k < n; k++) {
    const bk = k * n;
    for (let i = k; i < n; i++) l[i * n + k] = u[bk + i]!;
  }
  return l;
}

/**
 * The TypeScript twin of the wasm `syrk` (wasm/kernels.ts): same tiles, same chunks, same order
 * of every multiplication and addition.
 */
export function syrkJs(
  p: Float64Array,
  panels: number,
  t: number,
  kc: number,
  c: Float64Array,
  ldc: number,
): void {
  const stride = 4 * t;
  for (let kb = 0; kb < t; kb += kc) {
    const kend = Math.min(kb + kc, t);
    for (let bi = 0; bi < panels; bi++) {
      const pa = bi * stride;
      for (let bj = bi; bj < panels; bj++) {
        const pb = bj * stride;
        const r0 = 4 * bj * ldc + 4 * bi;
        const r1 = r0 + ldc;
        const r2 = r1 + ldc;
        const r3 = r2 + ldc;
        let s00 = c[r0]!,
          s10 = c[r0 + 1]!,
          s20 = c[r0 + 2]!,
          s30 = c[r0 + 3]!;
        let s01 = c[r1]!,
          s11 = c[r1 + 1]!,
          s21 = c[r1 + 2]!,
          s31 = c[r1 + 3]!;
        let s02 = c[r2]!,
          s12 = c[r2 + 1]!,
          s22 = c[r2 + 2]!,
          s32 = c[r2 + 3]!;
        let s03 = c[r3]!,
          s13 = c[r3 + 1]!,
          s23 = c[r3 + 2]!,
          s33 = c[r3 + 3]!;
        for (let k = kb; k < kend; k++) {
          const a = pa + 4 * k;
          const b = pb + 4 * k;
          const x0 = p[a]!,
            x1 = p[a + 1]!,
            x2 = p[a + 2]!,
            x3 = p[a + 3]!;
          const y0 = p[b]!,
            y1 = p[b + 1]!,
            y2 = p[b + 2]!,
            y3 = p[b + 3]!;
          s00 += x0 * y0;
          s10 += x1 * y0;
          s20 += x2 * y0;
          s30 += x3 * y0;
          s01 += x0 * y1;
          s11 += x1 * y1;
          s21 += x2 * y1;
          s31 += x3 * y1;
          s02 += x0 * y2;
          s12 += x1 * y2;
          s22 += x2 * y2;
          s32 += x3 * y2;
          s03 += x0 * y3;
          s13 += x1 * y3;
          s23 += x2 * y3;
          s33 += x3 * y3;
        }
        c[r0] = s00;
        c[r0 + 1] = s10;
        c[r0 + 2] = s20;
        c[r0 + 3] = s30;
        c[r1] = s01;
        c[r1 + 1] = s11;
        c[r1 + 2] = s21;
        c[r1 + 3] = s31;
        c[r2] = s02;
        c[r2 + 1] = s12;
        c[r2 + 2] = s22;
        c[r2 + 3] = s32;
        c[r3] = s03;
        c[r3 + 1] = s13;
        c[r3 + 2] = s23;
        c[r3 + 3] = s33;
      }
    }
  }
}
