/**
 * Drafts kept per tab (sessionStorage), so that a reload, a language switch or a link within the
 * tab loses nothing of the work in progress: the portfolio being created (the wizard's last stable
 * snapshot), the what-if's inputs and the optimisation's inputs (docs/decisions.md, "Nothing lost
 * on reload").
 *
 * Each draft is stored in an envelope with its version and the client it belongs to. A draft of
 * another version (written by an older build, whose machine may have had other states or context)
 * or of another client is discarded, never restored; so is one that cannot be read. Drafts hold
 * what the person typed and what the API answered about it, never a token or a password.
 */

/** The drafts, each with its version: bump one when the shape it stores or its machine changes. */
export const DRAFT_VERSIONS = { wizard: 1, optimise: 1, "what-if": 1 } as const;
export type DraftName = keyof typeof DRAFT_VERSIONS;

const PREFIX = "draft:";
export const draftKey = (name: DraftName) => `${PREFIX}${name}`;

interface Envelope {
  readonly version: number;
  readonly owner: number;
  readonly data: unknown;
}

export interface DraftStore {
  /** The draft of the signed-in client, or null (none, unreadable, older version, other client). */
  read(name: DraftName): unknown;
  /** Keeps the draft for the signed-in client (nothing without one). */
  write(name: DraftName, data: unknown): void;
  remove(name: DraftName): void;
  /** Every draft (sign-out). */
  clear(): void;
}

/**
 * The drafts of this tab. `owner` is the signed-in client's id (null while the session is not
 * known: nothing is read, written or discarded then).
 */
export function createDraftStore(storage: Storage | null, owner: () => number | null): DraftStore {
  const remove = (name: DraftName) => {
    try {
      storage?.removeItem(draftKey(name));
    } catch {
      // Storage refused (private mode): there is nothing to remove.
    }
  };
  return {
    read(name) {
      const who = owner();
      if (!storage || who === null) return null;
      let raw: string | null;
      try {
        raw = storage.getItem(draftKey(name));
      } catch {
        return null;
      }
      if (raw === null) return null;
      try {
        const envelope = JSON.parse(raw) as Partial<Envelope> | null;
        if (
          envelope &&
          envelope.version === DRAFT_VERSIONS[name] &&
          envelope.owner === who &&
          envelope.data !== undefined
        )
          return envelope.data;
      } catch {
        // Unreadable: discarded below.
      }
      remove(name);
      return null;
    },
    write(name, data) {
      const who = owner();
      if (!storage || who === null) return;
      const envelope: Envelope = { version: DRAFT_VERSIONS[name], owner: who, data };
      try {
        storage.setItem(draftKey(name), JSON.stringify(envelope));
      } catch {
        // Full or refused: the draft is simply not kept (the work goes on in memory).
      }
    },
    remove,
    clear() {
      for (const name of Object.keys(DRAFT_VERSIONS) as DraftName[]) remove(name);
    },
  };
}

/** What the restore needs of the session: whether a client is signed in. */
interface SessionLike {
  getSnapshot(): { matches(state: "signedIn"): boolean; context: { client: unknown } };
  subscribe(next: () => void): { unsubscribe(): void };
}

/**
 * Brings back the portfolio being created once the session knows its client (the draft belongs to
 * one): before the route guards decide, so that a reloaded summary is still allowed.
 */
export function restoreWhenSignedIn(
  session: SessionLike,
  workspace: { restore(): void },
): () => void {
  const check = () => {
    const s = session.getSnapshot();
    if (s.matches("signedIn") && s.context.client) workspace.restore();
  };
  check();
  const sub = session.subscribe(check);
  return () => sub.unsubscribe();
}
