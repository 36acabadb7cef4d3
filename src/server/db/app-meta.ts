import { eq } from "drizzle-orm";
import type { Db } from "./database.ts";
import { appMeta } from "./schema.ts";

/** Remembers when this database was first used; later starts leave it unchanged. */
export async function recordInstallation(db: Db): Promise<void> {
  await db
    .insert(appMeta)
    .values({ key: "installed_at", value: new Date().toISOString() })
    .onConflictDoNothing();
}

export async function readMeta(db: Db, key: string): Promise<string | null> {
  const rows = await db.select().from(appMeta).where(eq(appMeta.key, key));
  return rows[0]?.value ?? null;
}
