// What every part of the server is built from (AppDeps) and what a request carries through its
// middleware (AppEnv): their own module, so that the routes and middleware that use them do not
// import the app that mounts them.
import type { ProductPermissions } from "../contract/permissions.ts";
import type { BotCheck } from "./accounts/captcha.ts";
import type { Mailer } from "./accounts/mailer.ts";
import type { SessionAccount } from "./accounts/sessions.ts";
import type { AnalyticsPool } from "./analytics/pool.ts";
import type { PaymentProvider } from "./billing/provider.ts";
import type { ServerConfig } from "./config.ts";
import type { Database } from "./db/database.ts";
import type { Logger } from "./logger.ts";

export interface AppDeps {
  readonly config: ServerConfig;
  readonly database: Database;
  readonly logger: Logger;
  readonly version: string;
  readonly mailer: Mailer;
  readonly botCheck: BotCheck;
  readonly pool: AnalyticsPool;
  /** The payment provider; by default the built-in sandbox (docs/billing.md). */
  readonly paymentProvider?: PaymentProvider;
  /** The billing clock (tests move it); by default the system's. Sign-in and email limits use it too. */
  readonly clock?: () => Date;
  /**
   * Waits before a throttled sign-in is checked, and between looks at an Idempotency-Key whose
   * first call is still running (tests record the delays instead); by default a timer.
   */
  readonly sleep?: (ms: number) => Promise<void>;
  /** The education content folder; by default the project's content/ (docs/education.md). */
  readonly contentDir?: string;
}

export type AppEnv = {
  Variables: {
    requestId: string;
    clientId: number;
    tokenHash: string;
    /** The session's account, for the server's gates (src/server/accounts/gates.ts). */
    account: SessionAccount;
    /** Set by requireSessionWithPermissions: the client's permissions for the request's product. */
    permissions?: ProductPermissions;
  };
};
