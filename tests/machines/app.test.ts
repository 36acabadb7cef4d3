// The app's root actor (machines/app.machine.ts, issue 26): it owns the long-lived actors as
// children, each with its id from machines/system-ids.ts as child id and systemId.
import { describe, expect, it, vi } from "vitest";
import { createActor, createMachine, type AnyActorRef, type InspectionEvent } from "xstate";
import { storedWizardFixture } from "../../machines/app.fixtures.ts";
import { appMachine } from "../../machines/app.machine.ts";
import { optimiseEntry } from "../../machines/optimise.fixtures.ts";
import type { OptimiseInput } from "../../machines/optimise.machine.ts";
import { savedPortfolioFixture } from "../../machines/portfolio-lifecycle.fixtures.ts";
import { systemIds } from "../../machines/system-ids.ts";
import { whatIfEntry } from "../../machines/what-if.fixtures.ts";
import type { WhatIfInput } from "../../machines/what-if.machine.ts";
import { permissionsFor } from "../../src/contract/permissions.ts";

const permissions = permissionsFor("simAssets", "advanced");
const wizardInput = { product: "simAssets", edition: "ht", permissions } as const;
const lifecycleInput = {
  product: "simAssets",
  permissions,
  savedCount: 0,
  portfolio: savedPortfolioFixture(),
} as const;

/** A child that keeps its input (and, for the wizard, the snapshot it was brought back from). */
const child = (id: string) =>
  createMachine({
    id,
    types: {} as { input: unknown; context: { input: unknown } },
    context: ({ input }) => ({ input }),
  });

function start() {
  const forgetWizardDraft = vi.fn();
  const forgetOptimiseDraft = vi.fn();
  const inspected: InspectionEvent[] = [];
  const app = createActor(
    appMachine.provide({
      actors: {
        session: child("session") as never,
        wizard: child("wizard") as never,
        lifecycle: child("lifecycle") as never,
        optimise: child("optimise") as never,
        whatIf: child("whatIf") as never,
      },
      actions: { forgetWizardDraft, forgetOptimiseDraft },
    }),
    { inspect: (e) => void inspected.push(e) },
  ).start();
  const get = (id: string): AnyActorRef | undefined => app.system.get(id);
  const inputOf = (id: string) =>
    (get(id)?.getSnapshot() as { context: { input: unknown } })?.context.input;
  const children = () => Object.keys(app.getSnapshot().children).sort();
  return { app, get, inputOf, children, forgetWizardDraft, forgetOptimiseDraft, inspected };
}

describe("the app's root actor", () => {
  it("runs the session from the start, under its system id", () => {
    const { app, get, children } = start();
    expect(get(systemIds.session)).toBeDefined();
    expect(get(systemIds.session)).toBe(app.getSnapshot().children[systemIds.session]);
    expect(children()).toEqual([systemIds.session]);
  });

  it("starts a wizard with its system id, one at a time: a new start replaces it", () => {
    const { app, get, inputOf, children, forgetWizardDraft } = start();
    app.send({ type: "wizard.start", input: wizardInput });
    const first = get(systemIds.portfolioWizard);
    expect(first?.getSnapshot().status).toBe("active");
    expect(inputOf(systemIds.portfolioWizard)).toEqual({ input: wizardInput, snapshot: null });
    expect(forgetWizardDraft).toHaveBeenCalledTimes(1);

    app.send({ type: "wizard.start", input: { ...wizardInput, product: "simIndices" } });
    const second = get(systemIds.portfolioWizard);
    expect(second).not.toBe(first);
    expect(first?.getSnapshot().status).toBe("stopped");
    expect(children()).toEqual([systemIds.portfolioWizard, systemIds.session].sort());
  });

  it("opens a saved portfolio in a lifecycle, instead of the wizard", () => {
    const { app, get, inputOf, children } = start();
    app.send({ type: "wizard.start", input: wizardInput });
    const wizard = get(systemIds.portfolioWizard);
    app.send({ type: "portfolio.open", input: lifecycleInput });
    expect(wizard?.getSnapshot().status).toBe("stopped");
    expect(get(systemIds.portfolioWizard)).toBeUndefined();
    expect(inputOf(systemIds.portfolioLifecycle)).toEqual(lifecycleInput);
    expect(children()).toEqual([systemIds.portfolioLifecycle, systemIds.session].sort());

    // Opened again (as the server now has it): one lifecycle, the new one.
    const first = get(systemIds.portfolioLifecycle);
    app.send({ type: "portfolio.open", input: { ...lifecycleInput, savedCount: 2 } });
    expect(first?.getSnapshot().status).toBe("stopped");
    expect(inputOf(systemIds.portfolioLifecycle)).toEqual({ ...lifecycleInput, savedCount: 2 });
  });

  it("adopts a composed portfolio in a lifecycle beside the wizard, which stays", () => {
    const { app, get, children, forgetWizardDraft } = start();
    app.send({ type: "wizard.start", input: wizardInput });
    const wizard = get(systemIds.portfolioWizard);
    app.send({ type: "portfolio.adopt", input: { ...lifecycleInput, portfolio: null } });
    expect(get(systemIds.portfolioWizard)).toBe(wizard);
    expect(get(systemIds.portfolioLifecycle)?.getSnapshot().status).toBe("active");
    expect(children()).toEqual(
      [systemIds.portfolioLifecycle, systemIds.portfolioWizard, systemIds.session].sort(),
    );
    expect(forgetWizardDraft).toHaveBeenCalledTimes(1);
  });

  it("clears the wizard and the lifecycle (sign-out), the session stays", () => {
    const { app, get, children, forgetWizardDraft } = start();
    app.send({ type: "wizard.start", input: wizardInput });
    app.send({ type: "portfolio.adopt", input: { ...lifecycleInput, portfolio: null } });
    const wizard = get(systemIds.portfolioWizard);
    const lifecycle = get(systemIds.portfolioLifecycle);
    app.send({ type: "workspace.clear" });
    expect(wizard?.getSnapshot().status).toBe("stopped");
    expect(lifecycle?.getSnapshot().status).toBe("stopped");
    expect(get(systemIds.portfolioWizard)).toBeUndefined();
    expect(get(systemIds.portfolioLifecycle)).toBeUndefined();
    expect(children()).toEqual([systemIds.session]);
    expect(get(systemIds.session)?.getSnapshot().status).toBe("active");
    expect(forgetWizardDraft).toHaveBeenCalledTimes(2);
  });

  it("runs one optimisation, of the portfolio it names, until it is ended, adopted or cleared", () => {
    const { app, get, inputOf, forgetOptimiseDraft } = start();
    const input = optimiseEntry.input as OptimiseInput;
    app.send({ type: "optimisation.start", identity: "11:simAssets:draft", input });
    const first = get(systemIds.optimise);
    expect(inputOf(systemIds.optimise)).toEqual(input);
    expect(app.getSnapshot().context.optimisation).toBe("11:simAssets:draft");

    // Another portfolio: the one before is stopped (its stored inputs name it, never replayed).
    app.send({ type: "optimisation.start", identity: "11:simAssets:7", input });
    expect(first?.getSnapshot().status).toBe("stopped");
    expect(get(systemIds.optimise)).not.toBe(first);
    expect(app.getSnapshot().context.optimisation).toBe("11:simAssets:7");

    app.send({ type: "optimisation.end" });
    expect(get(systemIds.optimise)).toBeUndefined();
    expect(app.getSnapshot().context.optimisation).toBeNull();
    expect(forgetOptimiseDraft).toHaveBeenCalledTimes(1);

    // Adopted (the child is done): nothing of it is kept.
    app.send({ type: "optimisation.start", identity: "11:simAssets:7", input });
    app.send({ type: "xstate.done.actor.optimise" });
    expect(get(systemIds.optimise)).toBeUndefined();
    expect(app.getSnapshot().children[systemIds.optimise]).toBeUndefined();
    expect(forgetOptimiseDraft).toHaveBeenCalledTimes(2);

    // Sign-out clears it with the portfolio.
    app.send({ type: "optimisation.start", identity: "11:simAssets:7", input });
    app.send({ type: "workspace.clear" });
    expect(get(systemIds.optimise)).toBeUndefined();
    expect(app.getSnapshot().context.optimisation).toBeNull();
  });

  it("runs the what-if of the signed-in client until sign-out; another client gets another", () => {
    const { app, get, inputOf } = start();
    const input = whatIfEntry.input as WhatIfInput;
    app.send({ type: "whatIf.start", clientId: 11, input });
    const first = get(systemIds.whatIf);
    expect(inputOf(systemIds.whatIf)).toEqual(input);
    expect(app.getSnapshot().context.whatIfClient).toBe(11);

    app.send({ type: "whatIf.start", clientId: 12, input });
    expect(first?.getSnapshot().status).toBe("stopped");
    expect(app.getSnapshot().context.whatIfClient).toBe(12);

    app.send({ type: "workspace.clear" });
    expect(get(systemIds.whatIf)).toBeUndefined();
    expect(app.getSnapshot().context.whatIfClient).toBeNull();
  });

  it("brings back a stored wizard once its machine is there, from its snapshot", () => {
    const { app, get, inputOf } = start();
    app.send({ type: "wizard.restore", snapshot: storedWizardFixture });
    expect(app.getSnapshot().value).toBe("restoring");
    expect(app.getSnapshot().context.storedWizard).toBe(storedWizardFixture);
    expect(get(systemIds.portfolioWizard)).toBeUndefined();

    app.send({ type: "wizard.restored", input: wizardInput });
    expect(app.getSnapshot().value).toBe("ready");
    expect(app.getSnapshot().context.storedWizard).toBeNull();
    expect(inputOf(systemIds.portfolioWizard)).toEqual({
      input: wizardInput,
      snapshot: storedWizardFixture,
    });
  });

  it("drops a stored wizard coming back when a start or a clear comes first", () => {
    const { app, get } = start();
    app.send({ type: "wizard.restore", snapshot: storedWizardFixture });
    app.send({ type: "workspace.clear" });
    expect(app.getSnapshot().value).toBe("ready");
    expect(app.getSnapshot().context.storedWizard).toBeNull();
    app.send({ type: "wizard.restored", input: wizardInput });
    expect(get(systemIds.portfolioWizard)).toBeUndefined();

    app.send({ type: "wizard.restore", snapshot: storedWizardFixture });
    app.send({ type: "portfolio.open", input: lifecycleInput });
    expect(app.getSnapshot().context.storedWizard).toBeNull();
    app.send({ type: "wizard.restored", input: wizardInput });
    expect(get(systemIds.portfolioWizard)).toBeUndefined();
  });

  it("is inspected as one system: the one observer sees every child", () => {
    const { app, inspected } = start();
    app.send({ type: "wizard.start", input: wizardInput });
    app.send({ type: "portfolio.adopt", input: { ...lifecycleInput, portfolio: null } });
    app.send({
      type: "optimisation.start",
      identity: "11:simAssets:draft",
      input: optimiseEntry.input as OptimiseInput,
    });
    app.send({ type: "whatIf.start", clientId: 11, input: whatIfEntry.input as WhatIfInput });
    const seen = inspected
      .filter((e) => e.type === "@xstate.actor")
      .map((e) => (e.actorRef as AnyActorRef).id);
    expect(seen).toEqual(
      expect.arrayContaining([
        systemIds.session,
        systemIds.portfolioWizard,
        systemIds.portfolioLifecycle,
        systemIds.optimise,
        systemIds.whatIf,
      ]),
    );
  });
});
