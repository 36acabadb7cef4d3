import { pgTable, text, timestamp } from "drizzle-orm/pg-core";

/** Facts about this installation (e.g. when its database was created), shown on the health page. */
export const appMeta = pgTable("app_meta", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
