import { and, eq, gt, isNull, ne, sql } from "drizzle-orm";
import type { SessionToken } from "../../contract/accounts.ts";
import { preparedOnce, type Db } from "../db/database.ts";
import { clients, sessions } from "../db/schema.ts";
import { hashToken, newToken } from "./tokens.ts";

export async function createSession(db: Db, clientId: number, days: number): Promise<SessionToken> {
  const token = newToken();
  const expiresAt = new Date(Date.now() + days * 86_400_000);
  await db.insert(sessions).values({ tokenHash: hashToken(token), clientId, expiresAt });
  return { token, expiry: expiresAt.toISOString() };
}

/** What the server's gates need to know about a session's account (src/server/accounts/gates.ts). */
export interface SessionAccount {
  readonly kind: string;
  readonly policiesVersion: string | null;
  readonly trialEndsAt: Date | null;
}

/** The client of a live session (not expired, not revoked), with its account's gates, or null. */
export async function sessionClient(
  db: Db,
  token: string,
): Promise<{ clientId: number; tokenHash: string; account: SessionAccount } | null> {
  const tokenHash = hashToken(token);
  const rows = await preparedOnce(db, "session_account", (db) =>
    db
      .select({
        clientId: sessions.clientId,
        kind: clients.kind,
        policiesVersion: clients.policiesVersion,
        trialEndsAt: clients.trialEndsAt,
      })
      .from(sessions)
      .innerJoin(clients, eq(clients.id, sessions.clientId))
      .where(
        and(
          eq(sessions.tokenHash, sql.placeholder("tokenHash")),
          isNull(sessions.revokedAt),
          gt(sessions.expiresAt, sql`now()`),
        ),
      )
      .prepare("session_account"),
  ).execute({ tokenHash });
  const row = rows[0];
  return row
    ? {
        clientId: row.clientId,
        tokenHash,
        account: {
          kind: row.kind,
          policiesVersion: row.policiesVersion,
          trialEndsAt: row.trialEndsAt,
        },
      }
    : null;
}

export async function revokeSession(db: Db, tokenHash: string): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(sessions.tokenHash, tokenHash), isNull(sessions.revokedAt)));
}

/** Revokes every live session of a client, except one when given (the device that asked). */
export async function revokeAllSessions(db: Db, clientId: number, except?: string): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: sql`now()` })
    .where(
      and(
        eq(sessions.clientId, clientId),
        isNull(sessions.revokedAt),
        except ? ne(sessions.tokenHash, except) : undefined,
      ),
    );
}
