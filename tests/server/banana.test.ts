// The banana challenge API (docs/banana.md) on PGlite and PostgreSQL: every rule of creation (trial,
// permission, region, whole shares, 1-50 stocks, unknown / other region / stale stocks, the budget at
// its bounds, capacity per region, also under concurrent creations) with nothing stored on a
// refusal; the editing window by the server's clock; the monkey reproduced from its seed; the
// valuation against the dataset's closes as the market moves; statistics after 1 day and the
// annualised return after 30; the ranking per region (pages, own rows, aliases, never an email).
import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  BananaList,
  BananaPortfolio,
  BananaRanking,
  BananaUniverse,
} from "../../src/contract/banana.ts";
import type { Product } from "../../src/contract/common.ts";
import { decode } from "../../src/contract/decode.ts";
import type { Tier } from "../../src/contract/permissions.ts";
import { createSession } from "../../src/server/accounts/sessions.ts";
import { createAnalyticsPool, type AnalyticsPool } from "../../src/server/analytics/pool.ts";
import { createApp } from "../../src/server/app.ts";
import { drawMonkey } from "../../src/server/banana/monkey.ts";
import { valueBananas } from "../../src/server/banana/valuation.ts";
import { loadConfig } from "../../src/server/config.ts";
import { resultRows, type Database } from "../../src/server/db/database.ts";
import {
  bananaPortfolios,
  clients,
  portfolios,
  subscriptions,
} from "../../src/server/db/schema.ts";
import { createLogger } from "../../src/server/logger.ts";
import type { Dataset } from "../../src/server/market/dataset.ts";
import { importDataset } from "../../src/server/market/import.ts";
import { configureMarket } from "../../src/server/market/market-view.ts";
import { simulatedDataset } from "../../src/server/market/simulated.ts";
import { databaseTargets } from "../support/databases.ts";

const END = "2026-11-20";
const CREATED = "2026-10-01";
const LATER = "2026-10-15";
const MONTHS_LATER = "2026-11-20";

/** The simulated market, a stock that stopped trading, and a stock always at 100.00. */
function market(): Dataset {
  const simulated = simulatedDataset({ end: END, days: 400 });
  const san = simulated.assets.find((a) => a.symbol === "SAN.MC")!;
  const base = simulated.prices.get("SAN.MC")!;
  const cut = base.dates.findIndex((d) => d >= "2026-08-01");
  return {
    assets: [
      ...simulated.assets,
      { ...san, symbol: "OLD.MC", name: "Old Co" },
      { ...san, symbol: "HUND.MC", name: "Hundred Co" },
    ],
    prices: new Map([
      ...simulated.prices,
      ["OLD.MC", { dates: base.dates.slice(0, cut), values: base.values.slice(0, cut) }],
      ["HUND.MC", { dates: base.dates, values: base.dates.map(() => 100) }],
    ]),
    macro: simulated.macro,
  };
}

/** The last close on or before a day, straight from the dataset. */
function closeOn(data: Dataset, symbol: string, day: string): number {
  const s = data.prices.get(symbol)!;
  let v = Number.NaN;
  for (let i = 0; i < s.dates.length && s.dates[i]! <= day; i++) v = s.values[i]!;
  return v;
}

interface Answer<T = any> {
  readonly status: number;
  readonly body: T & { readonly msgCode?: string };
}

/** A moment of the real today at a UTC hour and minute (the editing window's clock). */
const at = (hour: number, minute = 0) => {
  const d = new Date();
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), hour, minute));
};

describe.each(databaseTargets)("banana challenge API on $name", (target) => {
  let database: Database;
  let drop: () => Promise<void>;
  let pool: AnalyticsPool;
  const data = market();
  let now = at(12);
  beforeAll(async () => {
    ({ database, drop } = await target.open());
    await importDataset(database.db, data, "simulated");
    configureMarket(database.db, { asOf: CREATED });
    pool = createAnalyticsPool(1);
  }, 240_000);
  afterAll(async () => {
    await pool.close();
    await drop();
  });

  const app = () =>
    createApp({
      config: loadConfig({ EDITION: "ht" }),
      database,
      logger: createLogger("silent"),
      version: "test",
      mailer: { kind: "outbox", send: async () => {} },
      botCheck: { kind: "pow", challenge: async () => ({}), verify: async () => false },
      pool,
      clock: () => now,
    });
  let server: ReturnType<typeof app>;
  beforeAll(() => {
    server = app();
  });

  async function call<T = any>(
    method: "GET" | "POST" | "PUT",
    url: string,
    token: string,
    body?: unknown,
  ): Promise<Answer<T>> {
    const res = await server.request(`/api/banana${url}`, {
      method,
      headers: {
        Authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { "Content-Type": "application/json" }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  }

  async function client(
    tiers: Partial<Record<Product, Tier>> = { simMonk: "standard" },
    extra: { trial?: boolean; alias?: string } = {},
  ) {
    const email = `b-${randomBytes(5).toString("hex")}@example.test`;
    const [row] = await database.db
      .insert(clients)
      .values({
        email,
        passwordHash: "unused",
        name: "Test",
        surname: "Banana",
        emailConfirmed: true,
        policiesVersion: "2026-01", // the policy in force (POLICY_VERSION's default)
        alias: extra.alias ?? null,
        trialEndsAt: extra.trial ? new Date(Date.now() + 10 * 86_400_000) : null,
      })
      .returning({ id: clients.id });
    for (const [product, tier] of Object.entries(tiers))
      await database.db.insert(subscriptions).values({
        clientId: row!.id,
        product,
        tier,
        planId: 5,
        active: true,
        expiryDate: new Date(Date.now() + 60 * 86_400_000),
      });
    const { token } = await createSession(database.db, row!.id, 30);
    return { id: row!.id, token, email };
  }

  const stored = async (clientId: number) =>
    Number(
      (
        await database.db
          .select({ n: sql<number>`count(*)::int` })
          .from(portfolios)
          .where(eq(portfolios.clientId, clientId))
      )[0]!.n,
    );

  /** Whole shares of equal amounts of ~9,950 over the stocks, at the creation day's closes. */
  const sharesFor = (symbols: string[], day = CREATED, budget = 9_950) =>
    symbols.map((id) => ({
      id,
      shares: Math.floor(budget / symbols.length / closeOn(data, id, day)),
    }));

  /** Tops the shares up with HUND.MC (100.00) so the total lies in the budget. */
  const withinBudget = (symbols: string[], day = CREATED) => {
    const assets = sharesFor(symbols, day, 9_800);
    const total = assets.reduce((s, a) => s + a.shares * closeOn(data, a.id, day), 0);
    const hund = Math.ceil((9_900 - total) / 100);
    return [...assets, { id: "HUND.MC", shares: hund }];
  };

  const EU = ["SAN.MC", "SAP.DE", "MC.PA", "ENEL.MI", "ASML.AS"];
  const USA = ["AAPL", "KO", "JPM", "XOM", "PFE", "INTC", "BAC", "CSCO", "PEP", "WMT"];
  /** Whole shares of the stocks, bought greedily up to the budget (at least 9,900, at most 10,000). */
  const fill = (symbols: string[], day = CREATED) => {
    const assets = sharesFor(symbols, day, 9_950);
    let total = assets.reduce((s, a) => s + a.shares * closeOn(data, a.id, day), 0);
    for (const a of [...assets].sort((x, y) => closeOn(data, x.id, day) - closeOn(data, y.id, day)))
      while (total < 9_900 && total + closeOn(data, a.id, day) <= 10_000) {
        a.shares++;
        total += closeOn(data, a.id, day);
      }
    expect(total).toBeGreaterThanOrEqual(9_900);
    return assets;
  };

  it("offers at least 30 stocks per region, not stale, with the day's close and the region's currency", async () => {
    const { token } = await client();
    for (const region of ["eu", "usa"] as const) {
      const res = await call("GET", `/universe?region=${region}`, token);
      expect(res.status).toBe(200);
      const u = decode(BananaUniverse, res.body);
      expect(u.ok).toBe(true);
      const universe = res.body as BananaUniverse;
      expect(universe.stocks.length).toBeGreaterThanOrEqual(30);
      expect(universe.currency).toBe(region === "eu" ? "EUR" : "USD");
      expect(universe.date).toBe(CREATED);
      expect(universe.stocks.map((s) => s.symbol)).not.toContain("OLD.MC");
      for (const s of universe.stocks.slice(0, 5))
        expect(s.close).toBe(closeOn(data, s.symbol, CREATED));
    }
  });

  it("creates an eu portfolio in whole shares at the day's close, with its monkey reproducible from the seed", async () => {
    const { id, token } = await client();
    const assets = withinBudget(EU);
    const res = await call<BananaPortfolio>("POST", "/portfolios", token, {
      name: "Euro bananas",
      region: "eu",
      assets,
    });
    expect(res.status).toBe(201);
    expect(decode(BananaPortfolio, res.body).ok).toBe(true);
    const p = res.body;
    expect(p.currency).toBe("EUR");
    expect(p.region).toBe("eu");
    expect(p.createdOn).toBe(CREATED);
    // The sum of the holdings' amounts, each shares × close rounded to the cent.
    const expected = assets.reduce(
      (s, a) => s + Math.round(a.shares * closeOn(data, a.id, CREATED) * 100),
      0,
    );
    expect(Math.round(p.totalInvested * 100)).toBe(expected);
    expect(p.totalInvested).toBeGreaterThanOrEqual(9_900);
    expect(p.totalInvested).toBeLessThanOrEqual(10_000);
    for (const h of p.holdings) expect(h.price).toBeCloseTo(closeOn(data, h.symbol, CREATED), 6);
    // The monkey: same number of stocks drawn, same region and day, whole shares, within the budget.
    const [row] = await database.db
      .select()
      .from(bananaPortfolios)
      .where(eq(bananaPortfolios.portfolioId, p.id));
    const universe = row!.universe as { symbol: string; price: number }[];
    expect(
      universe.every((u) => data.assets.find((a) => a.symbol === u.symbol)!.region === "eu"),
    ).toBe(true);
    const again = drawMonkey(row!.seed, universe, assets.length, 10_000).map((m) => ({
      symbol: universe[m.index]!.symbol,
      shares: m.shares,
    }));
    expect(p.monkey.seed).toBe(row!.seed);
    expect(p.monkey.holdings.map((h) => ({ symbol: h.symbol, shares: h.shares }))).toEqual(again);
    expect(p.monkey.totalInvested).toBeLessThanOrEqual(10_000);
    expect(p.monkey.holdings.every((h) => Number.isInteger(h.shares))).toBe(true);
    // Age 0: no statistics yet (section 6), not in the ranking.
    expect(p.figures?.return).toBeNull();
    expect(p.figures?.distribution).toBeNull();
    expect(p.rank).toBeNull();
    expect(await stored(id)).toBe(1);
  });

  it("values by one rule: the total is the sum of the holdings' amounts, a day without new closes ties at 50, a catch-up renumbers the ranking", async () => {
    const me = await client({ simMonk: "advanced" });
    const amount = (a: { id: string; shares: number }) =>
      Math.round(a.shares * closeOn(data, a.id, CREATED) * 100);
    // Shares whose amounts, each rounded to the cent, add up to a cent more or less than their
    // sum rounded once (the 9,949.83 against 9,949.84 of issue 24).
    const base = sharesFor(EU, CREATED, 9_000);
    let assets: { id: string; shares: number }[] | null = null;
    for (let extra = 0; extra < 60 && !assets; extra++) {
      const tried = base.map((a, j) => (j === 0 ? { ...a, shares: a.shares + extra } : a));
      const raw = tried.reduce((s, a) => s + a.shares * closeOn(data, a.id, CREATED), 0);
      const top = { id: "HUND.MC", shares: Math.max(0, Math.ceil((9_900 - raw) / 100)) };
      const all = [...tried, top].filter((a) => a.shares > 0);
      const sum = all.reduce((s, a) => s + amount(a), 0);
      const once = Math.round((raw + top.shares * 100) * 100);
      if (sum !== once && sum <= 1_000_000) assets = all;
    }
    expect(assets).not.toBeNull();
    const created = await call<BananaPortfolio>("POST", "/portfolios", me.token, {
      name: "Cents",
      region: "eu",
      assets: assets!,
    });
    expect(created.status).toBe(201);
    const p = created.body;
    const sumCents = assets!.reduce((s, a) => s + amount(a), 0);
    expect(Math.round(p.totalInvested * 100)).toBe(sumCents);
    expect(Math.round(p.holdings.reduce((s, h) => s + h.investedAmount, 0) * 100)).toBe(sumCents);
    // The creation day itself has no new close: the portfolio and every monkey return 0 exactly.
    await valueBananas(database.db, CREATED, { ids: [p.id] });
    const [row] = resultRows(
      await database.db.execute(sql`
        select return, percentile from banana_valuations
        where portfolio_id = ${p.id} and date = ${CREATED}::date`),
    );
    expect([Number(row!.return), Number(row!.percentile)]).toEqual([0, 50]);
    // The replay clock moves on without an import: reading values the client's portfolios, and
    // the ranking is numbered again at once.
    try {
      configureMarket(database.db, { asOf: LATER });
      const read = await call<BananaPortfolio>("GET", `/portfolios/${p.id}`, me.token);
      expect(read.body.figures?.date).toBe(LATER);
      expect(read.body.rank).not.toBeNull();
      const ranking = await call<BananaRanking>("GET", "/ranking?region=eu", me.token);
      expect(ranking.body.ownRanks).toEqual([{ portfolioId: p.id, rank: read.body.rank }]);
    } finally {
      configureMarket(database.db, { asOf: CREATED });
    }
  });

  it("accepts a total equal to the minimum or the maximum, refuses a cent outside", async () => {
    const { token, id } = await client({ simMonk: "advanced" });
    const create = (shares: number) =>
      call("POST", "/portfolios", token, {
        name: "Hundreds",
        region: "eu",
        assets: [{ id: "HUND.MC", shares }],
      });
    expect((await create(98)).body.msgCode).toBe("TOTAL_TOO_LOW");
    expect((await create(101)).body.msgCode).toBe("TOTAL_TOO_HIGH");
    expect(await stored(id)).toBe(0);
    expect((await create(99)).status).toBe(201);
    expect((await create(100)).status).toBe(201);
  });

  it("refuses each bad input with its own code and stores nothing", async () => {
    const { token, id } = await client();
    const base = { name: "Bad", region: "eu", assets: withinBudget(EU) };
    const cases: [unknown, number, string][] = [
      [{ ...base, region: null }, 400, "BANANA_REGION_REQUIRED"],
      [{ ...base, assets: [{ id: "HUND.MC", shares: 99.5 }] }, 400, "FRACTIONAL_SHARES"],
      [{ ...base, assets: [] }, 400, "TOO_FEW_ASSETS"],
      [{ ...base, assets: [{ id: "HUND.MC", shares: 0 }] }, 400, "TOO_FEW_ASSETS"],
      [{ ...base, assets: [{ id: "NOPE", shares: 1 }, ...base.assets] }, 400, "UNKNOWN_ASSET"],
      [{ ...base, assets: [{ id: "SPY", shares: 1 }, ...base.assets] }, 400, "UNKNOWN_ASSET"],
      [{ ...base, assets: [{ id: "AAPL", shares: 1 }, ...base.assets] }, 400, "WRONG_REGION"],
      [{ ...base, assets: [{ id: "OLD.MC", shares: 1 }, ...base.assets] }, 400, "STALE_ASSET"],
      [{ ...base, assets: [...base.assets, base.assets[0]] }, 400, "INVALID_REQUEST"],
    ];
    // 51 stocks of the region.
    const many = data.assets
      .filter((a) => a.region === "eu" && a.kind === "stock" && a.symbol !== "OLD.MC")
      .map((a) => ({ id: a.symbol, shares: 1 }));
    expect(many.length).toBeGreaterThanOrEqual(30);
    const fiftyOne = Array.from({ length: 51 }, (_, i) => ({
      id: many[i % many.length]!.id,
      shares: 1,
    }));
    // 51 distinct symbols are not available in the simulated market: the count rule answers first.
    cases.push([
      { ...base, assets: fiftyOne.map((a, i) => ({ ...a, id: i < many.length ? a.id : `X${i}` })) },
      400,
      "TOO_MANY_ASSETS",
    ]);
    for (const [body, status, code] of cases) {
      const res = await call("POST", "/portfolios", token, body);
      expect([res.status, res.body.msgCode]).toEqual([status, code]);
    }
    expect(await stored(id)).toBe(0);
  });

  it("refuses a trial user and a user without the simulator permission", async () => {
    const trial = await client({ simMonk: "advanced" }, { trial: true });
    const free = await client({ simAssets: "advanced" });
    const body = { name: "No", region: "eu", assets: withinBudget(EU) };
    const t = await call("POST", "/portfolios", trial.token, body);
    expect([t.status, t.body.msgCode]).toEqual([403, "BANANA_TRIAL_FORBIDDEN"]);
    const f = await call("POST", "/portfolios", free.token, body);
    expect([f.status, f.body.msgCode]).toEqual([403, "PLAN_FEATURE_LOCKED"]);
    expect(await stored(trial.id)).toBe(0);
    expect(await stored(free.id)).toBe(0);
  });

  it("limits each region to its capacity (standard: 1 eu, 1 usa) and reports what is left", async () => {
    const { token, id } = await client();
    const list0 = await call<BananaList>("GET", "/portfolios", token);
    expect(list0.body.capacity).toEqual({ eu: 1, usa: 1 });
    const eu = { name: "EU", region: "eu", assets: withinBudget(EU) };
    expect((await call("POST", "/portfolios", token, eu)).status).toBe(201);
    const second = await call("POST", "/portfolios", token, eu);
    expect([second.status, second.body.msgCode]).toEqual([403, "SAVE_LIMIT_REACHED"]);
    const usaAssets = fill(USA);
    const usa = await call<BananaPortfolio>("POST", "/portfolios", token, {
      name: "USA",
      region: "usa",
      assets: usaAssets,
    });
    expect(usa.status).toBe(201);
    expect(usa.body.currency).toBe("USD");
    const list = await call<BananaList>("GET", "/portfolios", token);
    expect(decode(BananaList, list.body).ok).toBe(true);
    expect(list.body.capacity).toEqual({ eu: 0, usa: 0 });
    expect(list.body.portfolios).toHaveLength(2);
    expect(await stored(id)).toBe(2);
  });

  it("never exceeds the capacity under concurrent creations", async () => {
    const { token, id } = await client({ simMonk: "advanced" }); // 3 per region
    const body = { name: "Race", region: "eu", assets: [{ id: "HUND.MC", shares: 99 }] };
    const results = await Promise.all(
      Array.from({ length: 8 }, () => call("POST", "/portfolios", token, body)),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(3);
    expect(results.filter((r) => r.body.msgCode === "SAVE_LIMIT_REACHED")).toHaveLength(5);
    expect(await stored(id)).toBe(3);
  });

  it("edits only between 10:00 and 22:00 UTC by the server's clock, with the budget at today's close", async () => {
    const { token } = await client();
    const created = await call<BananaPortfolio>("POST", "/portfolios", token, {
      name: "Window",
      region: "eu",
      assets: [{ id: "HUND.MC", shares: 99 }],
    });
    const pid = created.body.id;
    const edit = (shares: number, version = 1) =>
      call<BananaPortfolio>("PUT", `/portfolios/${pid}`, token, {
        version,
        assets: [{ id: "HUND.MC", shares }],
      });
    try {
      for (const [h, m] of [
        [9, 59],
        [22, 0],
        [23, 30],
        [0, 0],
      ] as const) {
        now = at(h, m);
        const res = await edit(100);
        expect([res.status, res.body.msgCode]).toEqual([403, "BANANA_WINDOW_CLOSED"]);
        const read = await call<BananaPortfolio>("GET", `/portfolios/${pid}`, token);
        expect(read.body.window.open).toBe(false);
      }
      now = at(10, 0);
      expect((await edit(101)).body.msgCode).toBe("TOTAL_TOO_HIGH");
      const ok = await edit(100);
      expect(ok.status).toBe(200);
      expect(ok.body.version).toBe(2);
      expect(ok.body.totalInvested).toBe(10_000);
      expect(ok.body.window).toEqual({ open: true, changesAt: at(22, 0).toISOString() });
      expect(ok.body.remainingEditions).toBe(4);
      now = at(21, 59);
      const stale = await edit(99, 1);
      expect([stale.status, stale.body.msgCode]).toEqual([412, "PORTFOLIO_CONFLICT"]);
      expect((await edit(99, 2)).status).toBe(200);
    } finally {
      now = at(12);
    }
  });

  it("values portfolios as the market moves: returns after 1 day, annualised after 30, percentile among 10,000 monkeys", async () => {
    const { token } = await client({ simMonk: "advanced" });
    const assets = withinBudget(EU);
    const created = await call<BananaPortfolio>("POST", "/portfolios", token, {
      name: "Moving",
      region: "eu",
      assets,
    });
    const pid = created.body.id;
    try {
      for (const day of [LATER, MONTHS_LATER]) {
        configureMarket(database.db, { asOf: day });
        await valueBananas(database.db);
        const res = await call<BananaPortfolio>("GET", `/portfolios/${pid}`, token);
        const f = res.body.figures!;
        expect(f.date).toBe(day);
        // Portfolio and monkey valued by one rule: each holding's amount rounded to the cent.
        const cents = (list: readonly { shares: number; symbol: string }[], on: string) =>
          list.reduce((s, h) => s + Math.round(h.shares * closeOn(data, h.symbol, on) * 100), 0);
        const mine = assets.map((a) => ({ symbol: a.id, shares: a.shares }));
        const value = cents(mine, day);
        expect(f.value).toBeCloseTo(value / 100, 8);
        expect(f.return!).toBeCloseTo(value / cents(mine, CREATED) - 1, 12);
        const m = res.body.monkey.holdings;
        const monkeyReturn = cents(m, day) / cents(m, CREATED) - 1;
        expect(f.monkeyReturn!).toBeCloseTo(monkeyReturn, 10);
        expect(f.indexReturn!).toBeCloseTo(
          closeOn(data, "STOXX50E_INDEX", day) / closeOn(data, "STOXX50E_INDEX", CREATED) - 1,
          10,
        );
        const d = f.distribution!;
        expect(d.count).toBe(10_000);
        expect(d.quantiles).toHaveLength(21);
        expect(d.percentile).toBeGreaterThanOrEqual(0);
        expect(d.percentile).toBeLessThanOrEqual(100);
        // The user's return lies where the percentile says among the quantiles.
        const below = d.quantiles.filter((q) => q < f.return!).length;
        expect(Math.abs(below * 5 - d.percentile)).toBeLessThanOrEqual(10);
        const age = (Date.parse(day) - Date.parse(CREATED)) / 86_400_000;
        expect(f.ageDays).toBe(age);
        if (age < 30) expect(f.annualisedReturn).toBeNull();
        else expect(f.annualisedReturn!).toBeCloseTo((1 + f.return!) ** (365 / age) - 1, 10);
      }
      const history = await call("GET", `/portfolios/${pid}/history`, token);
      expect(history.body.dates).toEqual([CREATED, LATER, MONTHS_LATER]);
    } finally {
      configureMarket(database.db, { asOf: CREATED });
    }
  });

  it("keeps aliases unique without regard to case, never an email, and shows them in the ranking", async () => {
    const a = await client({ simMonk: "advanced" });
    const b = await client({ simMonk: "advanced" });
    const put = async (token: string, alias: unknown) => {
      const res = await server.request("/api/client", {
        method: "PUT",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
        body: JSON.stringify({
          name: "Test",
          surname: "Banana",
          phone: null,
          telephone: null,
          countryId: null,
          newsletter: false,
          language: "en",
          birthDate: null,
          tin: null,
          postalCode: null,
          city: null,
          address: null,
          profession: null,
          alias,
        }),
      });
      return {
        status: res.status,
        body: (await res.json()) as { msgCode?: string; alias?: string },
      };
    };
    const alias = `Bonobo ${randomBytes(3).toString("hex")}`;
    const set = await put(a.token, alias);
    expect([set.status, set.body.alias]).toEqual([200, alias]);
    const taken = await put(b.token, alias.toUpperCase());
    expect([taken.status, taken.body.msgCode]).toEqual([409, "ALIAS_TAKEN"]);
    expect((await put(b.token, "me@example.test")).body.msgCode).toBe("INVALID_REQUEST");
    expect((await put(b.token, "ab")).body.msgCode).toBe("INVALID_REQUEST");
    expect((await put(a.token, null)).body.alias).toBeNull();
    expect((await put(b.token, alias)).status).toBe(200);
  });

  it("ranks each region by return since creation, a page at a time, own rows flagged, aliases and never emails", async () => {
    const players = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        client({ simMonk: "advanced" }, { alias: `monkey-${i}-${randomBytes(3).toString("hex")}` }),
      ),
    );
    // Each player buys one stock of the region (whole shares, topped up with HUND.MC).
    const stocks = [
      "SAN.MC",
      "SAP.DE",
      "MC.PA",
      "ENEL.MI",
      "ASML.AS",
      "IBE.MC",
      "TEF.MC",
      "BBVA.MC",
    ];
    for (const [i, p] of players.entries())
      for (let k = 0; k < 3; k++)
        expect(
          (
            await call("POST", "/portfolios", p.token, {
              name: `P${i}-${k}`,
              region: "eu",
              assets: withinBudget([stocks[(i + k) % stocks.length]!]),
            })
          ).status,
        ).toBe(201);
    const noRanking = await client({ simAssets: "advanced" });
    try {
      configureMarket(database.db, { asOf: LATER });
      await valueBananas(database.db);
      const me = players[0]!;
      const first = await call<BananaRanking>("GET", "/ranking?region=eu", me.token);
      expect(first.status).toBe(200);
      expect(decode(BananaRanking, first.body).ok).toBe(true);
      const page1 = first.body;
      expect(page1.pageSize).toBe(20);
      expect(page1.total).toBeGreaterThanOrEqual(24);
      expect(page1.rows).toHaveLength(20);
      const page2 = (await call<BananaRanking>("GET", "/ranking?region=eu&page=2", me.token)).body;
      const all = [...page1.rows, ...page2.rows];
      expect(all).toHaveLength(page1.total);
      all.forEach((r, i) => expect(r.rank).toBe(i + 1));
      for (let i = 1; i < all.length; i++)
        expect(all[i - 1]!.return).toBeGreaterThanOrEqual(all[i]!.return);
      const own = all.filter((r) => r.own);
      expect(own).toHaveLength(3);
      expect(own.every((r) => r.portfolioId !== null && r.alias === own[0]!.alias)).toBe(true);
      // An advanced member (communityPortfolio) gets every row's portfolio, to open it.
      expect(all.every((r) => r.portfolioId !== null)).toBe(true);
      expect(page1.ownRanks.map((o) => o.rank).sort()).toEqual(own.map((r) => r.rank).sort());
      const text = JSON.stringify([page1, page2]);
      for (const p of players) expect(text).not.toContain(p.email);
      // The portfolio's own page says its rank.
      const mine = own[0]!;
      const read = await call<BananaPortfolio>("GET", `/portfolios/${mine.portfolioId}`, me.token);
      expect(read.body.rank).toBe(mine.rank);
      const usa = await call<BananaRanking>("GET", "/ranking?region=usa", me.token);
      expect(usa.body.rows.every((r) => r.return !== undefined)).toBe(true);
      const locked = await call("GET", "/ranking?region=eu", noRanking.token);
      expect([locked.status, locked.body.msgCode]).toEqual([403, "PLAN_FEATURE_LOCKED"]);
      // Another member's portfolio: only with communityPortfolio (advanced has it, standard not).
      const other = all.find((r) => !r.own)!;
      expect(other).toBeDefined();
      const standard = await client();
      const refused = await call("GET", `/portfolios/${mine.portfolioId}`, standard.token);
      expect(refused.status).toBe(404);
      const viewed = await call<BananaPortfolio>(
        "GET",
        `/community/${other.portfolioId}`,
        me.token,
      );
      expect(viewed.status).toBe(200);
      expect([viewed.body.id, viewed.body.name, viewed.body.rank]).toEqual([
        other.portfolioId,
        other.name,
        other.rank,
      ]);
      expect(viewed.body.holdings.length).toBeGreaterThan(0);
      const lockedView = await call("GET", `/community/${other.portfolioId}`, standard.token);
      expect([lockedView.status, lockedView.body.msgCode]).toEqual([403, "PLAN_FEATURE_LOCKED"]);
      // A standard member (communityRanking only) is sent no other member's portfolio.
      const seen: BananaRanking["rows"][number][] = [];
      for (let p = 1; p <= Math.ceil(page1.total / 20); p++)
        seen.push(
          ...(await call<BananaRanking>("GET", `/ranking?region=eu&page=${p}`, standard.token)).body
            .rows,
        );
      expect(seen).toHaveLength(page1.total);
      expect(seen.filter((r) => !r.own).every((r) => r.portfolioId === null)).toBe(true);
    } finally {
      configureMarket(database.db, { asOf: CREATED });
    }
  });
});
