import { Schema } from "effect";
import { defaultProduct, Product } from "../contract/common.ts";

/** The current product (`stc`): chosen in q1 or by opening a portfolio; remembered per tab. */
export interface ProductStore {
  readonly get: () => Product;
  readonly set: (product: Product) => void;
  readonly subscribe: (listener: () => void) => () => void;
}

const KEY = "stc";
const isProduct = Schema.is(Product);

export function createProductStore(storage: Storage | null): ProductStore {
  const stored = storage?.getItem(KEY);
  let current: Product = isProduct(stored) ? stored : defaultProduct;
  const listeners = new Set<() => void>();
  return {
    get: () => current,
    set: (product) => {
      if (product === current) return;
      current = product;
      storage?.setItem(KEY, product);
      for (const l of listeners) l();
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
