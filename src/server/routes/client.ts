import { Hono } from "hono";
import { and, count, eq, ne, sql } from "drizzle-orm";
import {
  AcceptPoliciesRequest,
  Client,
  InvoiceInfo,
  PortfolioLimits,
  UpdateClientRequest,
} from "../../contract/accounts.ts";
import { InvoiceInfoUpdate } from "../../contract/billing.ts";
import { products } from "../../contract/common.ts";
import type { AppDeps, AppEnv } from "../app-env.ts";
import { clientById } from "../accounts/clients.ts";
import { clientView } from "../accounts/client-view.ts";
import { clients, invoiceInfo, portfolios } from "../db/schema.ts";
import { ApiFailure } from "../http/api-failure.ts";
import { requireSession } from "../http/auth.ts";
import { jsonBody, reply } from "../http/validate.ts";

/** The signed-in client's own data: every query is scoped to the session's client id. */
export function clientRoutes(deps: AppDeps) {
  const { db } = deps.database;
  const current = async (id: number) => {
    const row = await clientById(db, id);
    if (!row) throw new ApiFailure(401, "UNAUTHORIZED");
    return row;
  };
  return new Hono<AppEnv>()
    .use(requireSession(deps))
    .get("/", async (c) =>
      reply(
        c,
        Client,
        await clientView(
          db,
          await current(c.get("clientId")),
          deps.config.policyVersion,
          deps.clock?.(),
        ),
      ),
    )
    .put("/", async (c) => {
      const form = await jsonBody(c, UpdateClientRequest);
      const id = c.get("clientId");
      // The alias is unique without regard to case (clients_alias_key): taken answers 409.
      if (form.alias) {
        const taken = await db
          .select({ id: clients.id })
          .from(clients)
          .where(and(sql`lower(${clients.alias}) = lower(${form.alias})`, ne(clients.id, id)));
        if (taken.length) throw new ApiFailure(409, "ALIAS_TAKEN");
      }
      try {
        await db
          .update(clients)
          .set({ ...form, updatedAt: sql`now()` })
          .where(eq(clients.id, id));
      } catch (error) {
        if (/clients_alias_key/.test(String((error as { cause?: unknown }).cause ?? error)))
          throw new ApiFailure(409, "ALIAS_TAKEN");
        throw error;
      }
      return reply(c, Client, await clientView(db, await current(id), deps.config.policyVersion));
    })
    .post("/accept-policies", async (c) => {
      const { version } = await jsonBody(c, AcceptPoliciesRequest);
      if (version !== deps.config.policyVersion)
        throw new ApiFailure(400, "POLICY_VERSION_OUTDATED");
      const id = c.get("clientId");
      await db
        .update(clients)
        .set({ policiesVersion: version, policiesAcceptedAt: sql`now()`, updatedAt: sql`now()` })
        .where(eq(clients.id, id));
      return reply(c, Client, await clientView(db, await current(id), deps.config.policyVersion));
    })
    .get("/check-portfolios-limit", async (c) => {
      const row = await current(c.get("clientId"));
      const view = await clientView(db, row, deps.config.policyVersion);
      const saved = await db
        .select({ product: portfolios.product, region: portfolios.monkeyRegion, n: count() })
        .from(portfolios)
        .where(and(eq(portfolios.clientId, row.id), eq(portfolios.saved, true)))
        .groupBy(portfolios.product, portfolios.monkeyRegion);
      const used = (product: string, region?: string) =>
        saved
          .filter((s) => s.product === product && (region === undefined || s.region === region))
          .reduce((a, s) => a + Number(s.n), 0);
      const limits = products.map((category) => {
        const construction = view.permissions[category].construction;
        if (category === "simMonk") {
          return {
            category,
            availablePortfolios: {
              eu: Math.max(0, construction.saveLimitPerRegion.eu - used(category, "eu")),
              usa: Math.max(0, construction.saveLimitPerRegion.usa - used(category, "usa")),
            },
          };
        }
        return {
          category,
          availablePortfolios: Math.max(0, construction.saveLimit - used(category)),
        };
      });
      return reply(c, PortfolioLimits, limits);
    })
    .get("/invoice-info", async (c) => {
      const client = await current(c.get("clientId"));
      // TT accounts never see billing: their institution pays (PRODUCT.md, "Money").
      if (client.kind === "TT") throw new ApiFailure(403, "ACCOUNT_KIND_FORBIDDEN");
      const rows = await db.select().from(invoiceInfo).where(eq(invoiceInfo.clientId, client.id));
      const row = rows[0];
      if (row)
        return reply(c, InvoiceInfo, {
          name: row.name,
          country: row.country,
          tin: row.tin,
          city: row.city,
          address: row.address,
          postalCode: row.postalCode,
          companyName: row.companyName,
          company: row.company,
        });
      // Never filled in: prefilled from the profile (PRODUCT.md "Invoice details"), to be changed.
      const country = (client.countryId ?? "").toUpperCase();
      return reply(c, InvoiceInfo, {
        name: `${client.name} ${client.surname}`.trim(),
        country: /^[A-Z]{2}$/.test(country) ? country : "",
        tin: client.tin ?? "",
        city: client.city ?? "",
        address: client.address ?? "",
        postalCode: client.postalCode ?? "",
        companyName: "",
        company: false,
      });
    })
    .put("/invoice-info", async (c) => {
      const client = await current(c.get("clientId"));
      if (client.kind === "TT") throw new ApiFailure(403, "ACCOUNT_KIND_FORBIDDEN");
      const info = await jsonBody(c, InvoiceInfoUpdate);
      await db
        .insert(invoiceInfo)
        .values({ clientId: client.id, ...info })
        .onConflictDoUpdate({
          target: invoiceInfo.clientId,
          set: { ...info, updatedAt: sql`now()` },
        });
      return reply(c, InvoiceInfo, info);
    });
}
