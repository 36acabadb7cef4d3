/**
 * Work a request starts and does not wait for (a saved portfolio's first valuation): kept here so
 * a shutdown lets it finish before the database closes, and tests can wait for it instead of
 * sleeping.
 */
export interface Background {
  /** Runs a task after the answer; its failure is the task's to log. */
  run(task: () => Promise<unknown>): void;
  /** Resolves once every task started so far (and any they started) has ended. */
  settled(): Promise<void>;
}

export function background(): Background {
  const pending = new Set<Promise<unknown>>();
  return {
    run(task) {
      const p: Promise<unknown> = task()
        .catch(() => {})
        .finally(() => pending.delete(p));
      pending.add(p);
    },
    async settled() {
      while (pending.size) await Promise.allSettled([...pending]);
    },
  };
}
