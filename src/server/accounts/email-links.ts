import { and, eq, gt, isNull, sql } from "drizzle-orm";
import type { Locale } from "../../contract/common.ts";
import type { Db } from "../db/database.ts";
import { clients, emailTokens } from "../db/schema.ts";
import { hashToken, newToken } from "./tokens.ts";

export type TokenPurpose = "confirm-email" | "recover-password";

const lifetimeHours: Record<TokenPurpose, number> = { "confirm-email": 48, "recover-password": 1 };
const screens: Record<TokenPurpose, Record<Locale, string>> = {
  "confirm-email": { en: "/en/confirm-email", es: "/es/confirmar-email" },
  "recover-password": { en: "/en/recover-password", es: "/es/recuperar-contrasena" },
};

/** Issues a single-use token and returns the link that carries it. */
export async function issueLink(
  db: Db,
  options: {
    clientId: number;
    email: string;
    purpose: TokenPurpose;
    locale: Locale;
    publicUrl: string;
  },
) {
  const token = newToken();
  await db.insert(emailTokens).values({
    tokenHash: hashToken(token),
    clientId: options.clientId,
    purpose: options.purpose,
    expiresAt: new Date(Date.now() + lifetimeHours[options.purpose] * 3_600_000),
  });
  const query = new URLSearchParams({ email: options.email, token });
  return `${options.publicUrl}${screens[options.purpose][options.locale]}?${query}`;
}

/** Uses a token once: the client it belongs to when it is valid for that email, else null. */
export async function consumeToken(
  db: Db,
  purpose: TokenPurpose,
  email: string,
  token: string,
): Promise<number | null> {
  const rows = await db
    .update(emailTokens)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(emailTokens.tokenHash, hashToken(token)),
        eq(emailTokens.purpose, purpose),
        isNull(emailTokens.usedAt),
        gt(emailTokens.expiresAt, sql`now()`),
        sql`${emailTokens.clientId} = (select ${clients.id} from ${clients} where lower(${clients.email}) = lower(${email}))`,
      ),
    )
    .returning({ clientId: emailTokens.clientId });
  return rows[0]?.clientId ?? null;
}
