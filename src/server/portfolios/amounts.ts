/**
 * Splits `amount` (rounded to cents) by `weights` into amounts in cents that sum exactly to it:
 * each gets the floor of its share, and the cents left go to the largest remainders (ties to the
 * earlier asset). Negative or non-finite weights count as 0.
 */
export function allocateCents(weights: readonly number[], amount: number): number[] {
  const cents = Math.round(amount * 100);
  const clean = weights.map((w) => (Number.isFinite(w) && w > 0 ? w : 0));
  const sum = clean.reduce((s, w) => s + w, 0);
  if (!(sum > 0)) throw new Error("allocateCents: no positive weight");
  const raw = clean.map((w) => (w / sum) * cents);
  const out = raw.map((r) => Math.floor(r));
  let left = cents - out.reduce((s, c) => s + c, 0);
  const order = raw
    .map((r, i) => ({ i, rest: r - Math.floor(r) }))
    .filter((x) => clean[x.i]! > 0)
    .sort((a, b) => b.rest - a.rest || a.i - b.i);
  for (let k = 0; left > 0 && order.length > 0; k = (k + 1) % order.length, left--)
    out[order[k]!.i]! += 1;
  return out.map((c) => c / 100);
}
