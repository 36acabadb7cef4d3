// The banana machine's fixtures: what its chart and its model-based paths are drawn with.
import type { MachineEntry } from "./machine-entry.ts";
import { SessionFailure } from "./session.machine.ts";
import { bananaMachine, demoBananaPortfolio, demoBananaUniverse } from "./banana.machine.ts";

/** The banana machine as the charts and the path tests see it: its guards' rules and the events to explore. */
export const bananaEntry: MachineEntry = {
  machine: bananaMachine,
  title: "Banana challenge: a new portfolio against the monkey, and its edits",
  guards: {
    isEdit: "The screen opened a saved banana portfolio to change it.",
    hasCapacity:
      "Sections 3 and 9: capacity left in the region (saveLimitPerRegion minus the portfolios saved there, check-portfolios-limit's simMonk { eu, usa }); the server answers 403 SAVE_LIMIT_REACHED otherwise.",
    canAdd:
      "A stock of the region's universe (not stale, the day's close), not chosen yet, while fewer than 50 stocks are held.",
    canSave:
      "Section 5 and docs/banana.md, as the server checks them: a name; whole shares; 1 to 50 stocks; the total at the day's closes equal to the minimum (9,900) or the maximum (10,000) investment or between them, min rounded down and max rounded up to cents.",
    mayEdit:
      "Section 6: edits only between 10:00 and 22:00 UTC (the server's clock decides; the screen's clock follows its answer), with editions left (management.edit, remainingEditions).",
    isConflict:
      "The portfolio changed elsewhere (412 PORTFOLIO_CONFLICT): reload it and edit again.",
    windowClosed: "The server's clock says the window closed (403 BANANA_WINDOW_CLOSED).",
  },
  input: {
    now: new Date("2026-11-20T12:00:00Z"),
    draft: { region: "eu", name: "Iberian monkeys", picks: [{ symbol: "SAN.MC", shares: 1990 }] },
  },
  pathEvents: [
    {
      type: "xstate.done.actor.loadCapacity",
      output: { portfolios: [], capacity: { eu: 1, usa: 0 }, simulated: true },
    },
    { type: "xstate.error.actor.loadCapacity", error: new SessionFailure("NETWORK_ERROR") },
    { type: "failure.retry" },
    { type: "region.choose", region: "eu" },
    { type: "region.choose", region: "usa" },
    { type: "xstate.done.actor.loadUniverse", output: demoBananaUniverse },
    { type: "xstate.error.actor.loadUniverse", error: new SessionFailure("NETWORK_ERROR") },
    { type: "stock.add", symbol: "SAN.MC" },
    { type: "stock.add", symbol: "ITX.MC" },
    { type: "shares.change", symbol: "SAN.MC", shares: 1000 },
    { type: "shares.change", symbol: "ITX.MC", shares: 99 },
    { type: "stock.remove", symbol: "ITX.MC" },
    { type: "name.change", name: "Iberian monkeys" },
    { type: "region.change" },
    { type: "xstate.done.actor.loadEditUniverse", output: demoBananaUniverse },
    { type: "xstate.error.actor.loadEditUniverse", error: new SessionFailure("NETWORK_ERROR") },
    { type: "portfolio.save" },
    { type: "xstate.done.actor.create", output: demoBananaPortfolio },
    { type: "xstate.error.actor.create", error: new SessionFailure("SAVE_LIMIT_REACHED") },
    { type: "start.again" },
    { type: "edit.start", portfolio: demoBananaPortfolio },
    { type: "clock.tick", now: new Date("2026-11-20T23:00:00Z") },
    { type: "clock.tick", now: new Date("2026-11-21T10:00:00Z") },
    { type: "xstate.done.actor.update", output: { ...demoBananaPortfolio, version: 2 } },
    { type: "xstate.error.actor.update", error: new SessionFailure("PORTFOLIO_CONFLICT") },
    { type: "xstate.error.actor.update", error: new SessionFailure("BANANA_WINDOW_CLOSED") },
    { type: "xstate.error.actor.update", error: new SessionFailure("NETWORK_ERROR") },
    { type: "portfolio.reloaded", portfolio: { ...demoBananaPortfolio, version: 3 } },
  ],
};
