/**
 * Hierarchical clustering by average linkage (UPGMA: the distance between two clusters is the
 * mean of the distances between their members), and the dendrogram's leaf order, which puts
 * assets that move together side by side. The merges are found by the nearest-neighbour chain
 * (Murtagh 1983; O(n^2) time) and reported, labelled and ordered exactly as SciPy's
 * `linkage(method="average")` and `leaves_list` do (tested against them), so that ties break the
 * same way. Formulas: docs/analytics.md, "Portfolio history".
 */
import { EngineError } from "../errors.ts";

export interface Dendrogram {
  readonly size: number;
  /**
   * (n - 1) x 4, row-major, as SciPy's linkage matrix: the two clusters merged (leaves are
   * 0 … n - 1, the cluster made by row k is n + k; the smaller id first), their distance and the
   * size of the cluster they make; rows by increasing distance.
   */
  readonly merges: Float64Array;
  /** The leaves from left to right (each merge's first cluster drawn left of its second). */
  readonly order: Int32Array;
}

/** Average-linkage dendrogram of a symmetric n x n distance matrix (row-major, zero diagonal). */
export function averageLinkage(distances: Float64Array, n: number): Dendrogram {
  if (!(Number.isInteger(n) && n >= 1))
    throw new EngineError("INVALID_PARAMETER", `averageLinkage: n must be >= 1, got ${n}`);
  if (distances.length !== n * n)
    throw new EngineError(
      "DIMENSION_MISMATCH",
      `averageLinkage: ${distances.length} distances for ${n} x ${n}`,
    );
  for (let k = 0; k < distances.length; k++)
    if (!(distances[k]! >= 0 && distances[k]! < Infinity))
      throw new EngineError("INVALID_INPUT", `averageLinkage: distance ${distances[k]} at ${k}`);
  const d = distances.slice();
  const size = new Float64Array(n).fill(1);
  const raw = new Float64Array((n - 1) * 4);
  const chain = new Int32Array(n);
  let length = 0;
  for (let k = 0; k < n - 1; k++) {
    if (length === 0) {
      for (let i = 0; i < n; i++)
        if (size[i]! > 0) {
          chain[0] = i;
          break;
        }
      length = 1;
    }
    let x: number;
    let y = -1;
    let best: number;
    // Follow nearest neighbours until two clusters are each other's nearest.
    for (;;) {
      x = chain[length - 1]!;
      // The previous cluster of the chain wins ties, so that the chain cannot cycle.
      if (length > 1) {
        y = chain[length - 2]!;
        best = d[x * n + y]!;
      } else best = Infinity;
      for (let i = 0; i < n; i++) {
        if (size[i] === 0 || i === x) continue;
        const v = d[x * n + i]!;
        if (v < best) {
          best = v;
          y = i;
        }
      }
      if (length > 1 && y === chain[length - 2]) break;
      chain[length++] = y;
    }
    length -= 2;
    if (x > y) [x, y] = [y, x];
    const nx = size[x]!;
    const ny = size[y]!;
    raw[k * 4] = x;
    raw[k * 4 + 1] = y;
    raw[k * 4 + 2] = best;
    raw[k * 4 + 3] = nx + ny;
    size[x] = 0;
    size[y] = nx + ny;
    for (let i = 0; i < n; i++) {
      if (size[i] === 0 || i === y) continue;
      const v = (nx * d[i * n + x]! + ny * d[i * n + y]!) / (nx + ny);
      d[i * n + y] = v;
      d[y * n + i] = v;
    }
  }
  const merges = label(raw, n);
  return { size: n, merges, order: leaves(merges, n) };
}

/**
 * The merges sorted by distance (stable) and labelled as SciPy does: each merge's clusters by
 * their current ids (union-find), the smaller first; the new cluster takes the next id.
 */
function label(raw: Float64Array, n: number): Float64Array {
  const rows = Array.from({ length: n - 1 }, (_, k) => k).sort(
    (a, b) => raw[a * 4 + 2]! - raw[b * 4 + 2]!,
  );
  const parent = new Int32Array(2 * n - 1).fill(-1);
  const find = (x: number) => {
    let root = x;
    while (parent[root]! >= 0) root = parent[root]!;
    while (parent[x]! >= 0) {
      const next = parent[x]!;
      parent[x] = root;
      x = next;
    }
    return root;
  };
  const out = new Float64Array((n - 1) * 4);
  rows.forEach((r, k) => {
    const a = find(raw[r * 4]!);
    const b = find(raw[r * 4 + 1]!);
    out[k * 4] = Math.min(a, b);
    out[k * 4 + 1] = Math.max(a, b);
    out[k * 4 + 2] = raw[r * 4 + 2]!;
    out[k * 4 + 3] = raw[r * 4 + 3]!;
    parent[a] = n + k;
    parent[b] = n + k;
  });
  return out;
}

/** Leaves in pre-order from the root, first cluster before second (SciPy's leaves_list). */
function leaves(merges: Float64Array, n: number): Int32Array {
  const order = new Int32Array(n);
  let filled = 0;
  const stack = [2 * n - 2];
  while (stack.length) {
    const id = stack.pop()!;
    if (id < n) {
      order[filled++] = id;
      continue;
    }
    const k = id - n;
    stack.push(merges[k * 4 + 1]!, merges[k * 4]!);
  }
  return order;
}
