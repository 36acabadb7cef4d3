import { randomBytes } from "node:crypto";
import type { ServerConfig } from "../config.ts";
import type { Database } from "../db/database.ts";
import { appMeta } from "../db/schema.ts";
import { readMeta } from "../db/app-meta.ts";
import type { Logger } from "../logger.ts";
import { powCheck, recaptchaCheck, type BotCheck } from "./captcha.ts";
import { createMailer, type Mailer } from "./mailer.ts";

/** A secret every instance shares: made once, kept in the database. */
async function sharedSecret(database: Database, key: string): Promise<string> {
  await database.db
    .insert(appMeta)
    .values({ key, value: randomBytes(32).toString("base64url") })
    .onConflictDoNothing();
  const value = await readMeta(database.db, key);
  if (!value) throw new Error(`missing ${key}`);
  return value;
}

export async function accountServices(
  config: ServerConfig,
  database: Database,
  logger: Logger,
): Promise<{ mailer: Mailer; botCheck: BotCheck }> {
  const mailer = await createMailer({
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    db: database.db,
    logger,
  });
  const botCheck =
    config.recaptchaSiteKey && config.recaptchaSecret
      ? recaptchaCheck({ siteKey: config.recaptchaSiteKey, secret: config.recaptchaSecret })
      : powCheck({
          db: database.db,
          secret: await sharedSecret(database, "captcha_secret"),
          cost: config.captchaCost,
          maxCounter: config.captchaMaxCounter,
        });
  return { mailer, botCheck };
}
