import type { Db } from "../db/database.ts";
import { outbox } from "../db/schema.ts";
import type { Logger } from "../logger.ts";
import type { Email, EmailPurpose } from "./emails.ts";

export interface Mailer {
  readonly kind: "smtp" | "outbox";
  send(to: string, email: Email, purpose: EmailPurpose): Promise<void>;
}

/** Sends through SMTP when `SMTP_URL` is configured; otherwise keeps the message in the outbox table. */
export async function createMailer(options: {
  smtpUrl: string | null;
  from: string;
  db: Db;
  logger: Logger;
}): Promise<Mailer> {
  if (options.smtpUrl) {
    const { createTransport } = await import("nodemailer");
    const transport = createTransport(options.smtpUrl);
    return {
      kind: "smtp",
      async send(to, email, purpose) {
        await transport.sendMail({
          from: options.from,
          to,
          subject: email.subject,
          text: email.text,
        });
        options.logger.info("email sent", { purpose });
      },
    };
  }
  return {
    kind: "outbox",
    async send(to, email, purpose) {
      await options.db
        .insert(outbox)
        .values({ to, subject: email.subject, text: email.text, purpose });
      options.logger.info("email kept in the outbox", { purpose });
    },
  };
}
