import { eq, sql } from "drizzle-orm";
import type { Db } from "../db/database.ts";
import { clients } from "../db/schema.ts";
import type { ClientRow } from "./client-view.ts";

export async function clientByEmail(db: Db, email: string): Promise<ClientRow | null> {
  const rows = await db
    .select()
    .from(clients)
    .where(sql`lower(${clients.email}) = lower(${email})`);
  return rows[0] ?? null;
}

export async function clientById(db: Db, id: number): Promise<ClientRow | null> {
  const rows = await db.select().from(clients).where(eq(clients.id, id));
  return rows[0] ?? null;
}
