import { describe, expect, it, vi } from "vitest";
import { createActor, fromPromise, waitFor } from "xstate";
import {
  bananaIssues,
  bananaMachine,
  bananaTotal,
  demoBananaPortfolio,
  demoBananaUniverse,
  pricesOf,
  type BananaInput,
} from "../../machines/banana.machine.ts";
import { SessionFailure } from "../../machines/session.machine.ts";
import type {
  BananaList,
  BananaPortfolio,
  CreateBananaRequest,
  UpdateBananaRequest,
} from "../../src/contract/banana.ts";

const prices = pricesOf(demoBananaUniverse);
const noon = new Date("2026-11-20T12:00:00Z");

interface Fakes {
  capacity?: BananaList["capacity"];
  create?: (body: CreateBananaRequest) => Promise<BananaPortfolio>;
  update?: (id: number, body: UpdateBananaRequest) => Promise<BananaPortfolio>;
}

function start(input: BananaInput = { now: noon }, fakes: Fakes = {}) {
  const create = vi.fn(fakes.create ?? (async () => demoBananaPortfolio));
  const update = vi.fn(
    fakes.update ??
      (async () => ({ ...demoBananaPortfolio, version: demoBananaPortfolio.version + 1 })),
  );
  const loadUniverse = vi.fn(async () => demoBananaUniverse);
  const actor = createActor(
    bananaMachine.provide({
      actors: {
        loadCapacity: fromPromise(async (): Promise<BananaList> => ({
          portfolios: [],
          capacity: fakes.capacity ?? { eu: 1, usa: 0 },
          simulated: true,
        })),
        loadUniverse: fromPromise(loadUniverse),
        create: fromPromise(({ input }) => create(input)),
        update: fromPromise(({ input }) => update(input.id, input.body)),
      },
    }),
    { input },
  );
  actor.start();
  return { actor, create, update, loadUniverse };
}

describe("the banana rules mirror the server's (section 5, docs/banana.md)", () => {
  const one = (shares: number | null) => [{ symbol: "SAN.MC", shares }];
  it("accepts a total equal to the minimum, the maximum or between them", () => {
    expect(bananaIssues("A", one(1980), prices)).toEqual([]); // 9,900.00
    expect(bananaIssues("A", one(2000), prices)).toEqual([]); // 10,000.00
    expect(bananaIssues("A", one(1990), prices)).toEqual([]);
  });
  it("refuses a total a share below the minimum or above the maximum", () => {
    expect(bananaIssues("A", one(1979), prices)).toEqual(["TOTAL_TOO_LOW"]);
    expect(bananaIssues("A", one(2001), prices)).toEqual(["TOTAL_TOO_HIGH"]);
  });
  it("adds cents exactly (no floating drift at the bounds)", () => {
    const p = new Map([["X", 0.1]]);
    expect(bananaTotal([{ symbol: "X", shares: 99_000 }], p)).toBe(9_900);
    expect(bananaIssues("A", [{ symbol: "X", shares: 99_000 }], p)).toEqual([]);
  });
  it("needs a name, whole shares and 1 to 50 stocks", () => {
    expect(bananaIssues(" ", one(1990), prices)).toContain("NAME_REQUIRED");
    expect(bananaIssues("A", one(1.5), prices)).toContain("FRACTIONAL_SHARES");
    expect(bananaIssues("A", one(null), prices)).toContain("SHARES_REQUIRED");
    expect(bananaIssues("A", [], prices)).toEqual(["TOO_FEW_ASSETS"]);
    const many = Array.from({ length: 51 }, (_, i) => ({ symbol: `S${i}`, shares: 1 }));
    const cheap = new Map(many.map((m) => [m.symbol, 10_000 / 51]));
    expect(bananaIssues("A", many, cheap)).toContain("TOO_MANY_ASSETS");
  });
});

describe("a new banana portfolio", () => {
  it("chooses only a region with capacity left, then picks and saves with the monkey drawn by the server", async () => {
    const { actor, create, loadUniverse } = start({ now: noon, draft: { name: "Mine" } });
    await waitFor(actor, (s) => s.matches({ create: "choosingRegion" }));
    actor.send({ type: "region.choose", region: "usa" });
    expect(actor.getSnapshot().matches({ create: "choosingRegion" })).toBe(true);
    actor.send({ type: "region.choose", region: "eu" });
    await waitFor(actor, (s) => s.matches({ create: "picking" }));
    expect(loadUniverse).toHaveBeenCalledWith(expect.objectContaining({ input: { region: "eu" } }));

    actor.send({ type: "stock.add", symbol: "SAN.MC" });
    actor.send({ type: "stock.add", symbol: "SAN.MC" });
    actor.send({ type: "stock.add", symbol: "NOT.THERE" });
    expect(actor.getSnapshot().context.picks).toEqual([{ symbol: "SAN.MC", shares: 1 }]);
    actor.send({ type: "portfolio.save" });
    expect(actor.getSnapshot().matches({ create: "picking" })).toBe(true); // 5 EUR: too low

    actor.send({ type: "stock.add", symbol: "ITX.MC" });
    actor.send({ type: "shares.change", symbol: "SAN.MC", shares: 1000 });
    actor.send({ type: "shares.change", symbol: "ITX.MC", shares: 99 });
    actor.send({ type: "portfolio.save" });
    await waitFor(actor, (s) => s.matches({ create: "saved" }));
    expect(create).toHaveBeenCalledWith({
      name: "Mine",
      region: "eu",
      assets: [
        { id: "SAN.MC", shares: 1000 },
        { id: "ITX.MC", shares: 99 },
      ],
    });
    expect(actor.getSnapshot().context.saved).toEqual(demoBananaPortfolio);
  });

  it("shows the server's refusal, and starts again with nothing carried over", async () => {
    const { actor } = start(
      {
        now: noon,
        draft: { region: "eu", name: "Mine", picks: [{ symbol: "SAN.MC", shares: 1990 }] },
      },
      {
        create: async () => {
          throw new SessionFailure("SAVE_LIMIT_REACHED");
        },
      },
    );
    await waitFor(actor, (s) => s.matches({ create: "choosingRegion" }));
    actor.send({ type: "region.choose", region: "eu" });
    await waitFor(actor, (s) => s.matches({ create: "picking" }));
    expect(actor.getSnapshot().context.picks).toHaveLength(1); // the draft is kept
    actor.send({ type: "portfolio.save" });
    await waitFor(actor, (s) => s.matches({ create: "failed" }));
    expect(actor.getSnapshot().context.error).toBe("SAVE_LIMIT_REACHED");
    actor.send({ type: "shares.change", symbol: "SAN.MC", shares: 1985 });
    expect(actor.getSnapshot().matches({ create: "picking" })).toBe(true);
    expect(actor.getSnapshot().context.error).toBeNull();
  });

  it("changes the portfolio just saved at once: edit.start edits it, and the change is sent", async () => {
    const { actor, update, loadUniverse } = start({
      now: noon,
      draft: { region: "eu", name: "Mine", picks: [{ symbol: "SAN.MC", shares: 1990 }] },
    });
    await waitFor(actor, (s) => s.matches({ create: "choosingRegion" }));
    actor.send({ type: "region.choose", region: "eu" });
    await waitFor(actor, (s) => s.matches({ create: "picking" }));
    actor.send({ type: "portfolio.save" });
    await waitFor(actor, (s) => s.matches({ create: "saved" }));
    const saved = actor.getSnapshot().context.saved!;
    actor.send({ type: "edit.start", portfolio: saved });
    expect(actor.getSnapshot().context.mode).toBe("edit");
    expect(actor.getSnapshot().context.portfolio).toEqual(saved);
    await waitFor(actor, (s) => s.matches({ edit: "picking" }));
    expect(loadUniverse).toHaveBeenCalledTimes(2);
    actor.send({ type: "portfolio.save" });
    await waitFor(actor, (s) => s.matches({ edit: "saved" }));
    expect(update).toHaveBeenCalledWith(
      saved.id,
      expect.objectContaining({ version: saved.version }),
    );
  });

  it("drops the picks when the region changes", async () => {
    const { actor } = start(
      {
        now: noon,
        draft: { region: "eu", name: "Mine", picks: [{ symbol: "SAN.MC", shares: 1990 }] },
      },
      { capacity: { eu: 1, usa: 1 } },
    );
    await waitFor(actor, (s) => s.matches({ create: "choosingRegion" }));
    actor.send({ type: "region.choose", region: "usa" });
    expect(actor.getSnapshot().context.picks).toEqual([]);
  });
});

describe("an edit of a banana portfolio", () => {
  it("waits for the 10:00-22:00 UTC window, then sells with 0 shares and sends the version read", async () => {
    const { actor, update } = start({
      portfolio: demoBananaPortfolio,
      now: new Date("2026-11-20T22:00:00Z"),
    });
    expect(actor.getSnapshot().matches({ edit: "windowClosed" })).toBe(true);
    actor.send({ type: "clock.tick", now: new Date("2026-11-21T09:59:59Z") });
    expect(actor.getSnapshot().matches({ edit: "windowClosed" })).toBe(true);
    actor.send({ type: "clock.tick", now: new Date("2026-11-21T10:00:00Z") });
    await waitFor(actor, (s) => s.matches({ edit: "picking" }));
    actor.send({ type: "stock.remove", symbol: "ITX.MC" });
    actor.send({ type: "shares.change", symbol: "SAN.MC", shares: 1990 });
    actor.send({ type: "portfolio.save" });
    await waitFor(actor, (s) => s.matches({ edit: "saved" }));
    expect(update).toHaveBeenCalledWith(demoBananaPortfolio.id, {
      version: 1,
      assets: [
        { id: "SAN.MC", shares: 1990 },
        { id: "ITX.MC", shares: 0 },
      ],
    });
    expect(actor.getSnapshot().context.portfolio?.version).toBe(2);
  });

  it("is closed when no editions are left", () => {
    const { actor } = start({
      portfolio: { ...demoBananaPortfolio, remainingEditions: 0 },
      now: noon,
    });
    expect(actor.getSnapshot().matches({ edit: "windowClosed" })).toBe(true);
  });

  it("reloads on a conflict and goes back to the window when the server's clock says it closed", async () => {
    let answer: SessionFailure = new SessionFailure("PORTFOLIO_CONFLICT");
    const { actor } = start(
      { portfolio: demoBananaPortfolio, now: noon },
      {
        update: async () => {
          throw answer;
        },
      },
    );
    await waitFor(actor, (s) => s.matches({ edit: "picking" }));
    actor.send({ type: "portfolio.save" });
    await waitFor(actor, (s) => s.matches({ edit: "conflict" }));
    actor.send({ type: "portfolio.reloaded", portfolio: { ...demoBananaPortfolio, version: 3 } });
    await waitFor(actor, (s) => s.matches({ edit: "picking" }));
    expect(actor.getSnapshot().context.portfolio?.version).toBe(3);
    answer = new SessionFailure("BANANA_WINDOW_CLOSED");
    actor.send({ type: "portfolio.save" });
    await waitFor(actor, (s) => s.matches({ edit: "windowClosed" }));
    expect(actor.getSnapshot().context.error).toBe("BANANA_WINDOW_CLOSED");
  });
});
