/**
 * Where the sign-up form gets its bot-protection token when it submits: the proof-of-work widget
 * puts its payload here (or a reCAPTCHA call is registered), the register call waits for it.
 */
export interface TokenStore {
  /** A token now, or as soon as the check has one. */
  token(): Promise<string>;
  set(token: string | null): void;
  /** Replaces where tokens come from (reCAPTCHA makes a fresh one per submit). */
  setSource(source: () => Promise<string>): void;
}

export function createTokenStore(): TokenStore {
  let current: string | null = null;
  let source: (() => Promise<string>) | null = null;
  const waiters: ((token: string) => void)[] = [];
  return {
    token: () =>
      source
        ? source()
        : current
          ? Promise.resolve(current)
          : new Promise((resolve) => waiters.push(resolve)),
    set(token) {
      current = token;
      if (token) for (const resolve of waiters.splice(0)) resolve(token);
    },
    setSource(next) {
      source = next;
    },
  };
}
