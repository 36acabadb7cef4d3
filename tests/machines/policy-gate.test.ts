import { describe, expect, it, vi } from "vitest";
import { createActor } from "xstate";
import { policyGateMachine, type PolicyFacts } from "../../machines/policy-gate.machine.ts";

const pending: PolicyFacts = {
  edition: "ht",
  signedIn: true,
  kind: "standard",
  policiesAccepted: false,
};

function start() {
  const rememberPath = vi.fn();
  const restorePath = vi.fn();
  const actor = createActor(
    policyGateMachine.provide({
      actions: {
        rememberPath: (_, params) => rememberPath(params),
        restorePath: () => restorePath(),
      },
    }),
  ).start();
  const facts = (facts: Partial<PolicyFacts>, path = "/en/my-account/portfolios?tab=1") =>
    actor.send({ type: "facts.changed", facts: { ...pending, ...facts }, path });
  return { actor, rememberPath, restorePath, facts };
}

describe("policyGateMachine", () => {
  it("starts open, before any facts are known", () => {
    const { actor, rememberPath } = start();
    expect(actor.getSnapshot().value).toBe("open");
    expect(rememberPath).not.toHaveBeenCalled();
  });

  it("gates a signed-in standard account of the ht edition that has not accepted, remembering the path", () => {
    const { actor, rememberPath, restorePath, facts } = start();

    facts({});

    expect(actor.getSnapshot().value).toBe("gated");
    expect(rememberPath).toHaveBeenCalledTimes(1);
    expect(rememberPath).toHaveBeenCalledWith({ path: "/en/my-account/portfolios?tab=1" });
    expect(restorePath).not.toHaveBeenCalled();
  });

  it("never gates an HT account: its policies are accepted by contract", () => {
    const { actor, rememberPath, facts } = start();
    facts({ kind: "HT" });
    expect(actor.getSnapshot().value).toBe("open");
    expect(rememberPath).not.toHaveBeenCalled();
  });

  it.each(["standard", "HT", "TT"] as const)("never gates in the tt edition (kind %s)", (kind) => {
    const { actor, rememberPath, facts } = start();
    facts({ edition: "tt", kind });
    expect(actor.getSnapshot().value).toBe("open");
    expect(rememberPath).not.toHaveBeenCalled();
  });

  it("does not gate a guest, nor an account that has accepted", () => {
    const { actor, rememberPath, facts } = start();
    facts({ signedIn: false, kind: null });
    expect(actor.getSnapshot().value).toBe("open");
    facts({ policiesAccepted: true });
    expect(actor.getSnapshot().value).toBe("open");
    expect(rememberPath).not.toHaveBeenCalled();
  });

  it("opens on policies.accepted and restores the path once", () => {
    const { actor, restorePath, facts } = start();
    facts({});

    actor.send({ type: "policies.accepted" });

    expect(actor.getSnapshot().value).toBe("open");
    expect(restorePath).toHaveBeenCalledTimes(1);
    facts({ policiesAccepted: true }, "/en/home");
    actor.send({ type: "policies.accepted" });
    expect(actor.getSnapshot().value).toBe("open");
    expect(restorePath).toHaveBeenCalledTimes(1);
  });

  it("opens when the client arrives with the policies accepted, restoring the path once", () => {
    const { actor, restorePath, facts } = start();
    facts({});

    facts({ policiesAccepted: true }, "/en/accept-privacy-policy");
    expect(actor.getSnapshot().value).toBe("open");
    expect(restorePath).toHaveBeenCalledTimes(1);

    facts({ policiesAccepted: true }, "/en/my-account/portfolios?tab=1");
    expect(restorePath).toHaveBeenCalledTimes(1);
  });

  it("stays gated while the facts change without acceptance, remembering only the first path", () => {
    const { actor, rememberPath, restorePath, facts } = start();
    facts({}, "/en/markets");
    facts({}, "/en/accept-privacy-policy");
    expect(actor.getSnapshot().value).toBe("gated");
    expect(restorePath).not.toHaveBeenCalled();
    expect(rememberPath.mock.calls.length).toBeGreaterThanOrEqual(1);
    for (const call of rememberPath.mock.calls) expect(call).toEqual([{ path: "/en/markets" }]);
  });

  it("opens without restoring when the user signs out while gated", () => {
    const { actor, restorePath, facts } = start();
    facts({});
    facts({ signedIn: false, kind: null });
    expect(actor.getSnapshot().value).toBe("open");
    expect(restorePath).not.toHaveBeenCalled();
  });
});
