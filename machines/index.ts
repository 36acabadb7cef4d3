/**
 * The registry of the machines the charts (docs/machines) and the path tests walk, in the order
 * the charts list them. Each machine's entry (its guards' rules, input and the events to explore,
 * with the fixtures they use) lives beside it in `<machine>.fixtures.ts`.
 */
import type { MachineEntry } from "./machine-entry.ts";
import { appEntry } from "./app.fixtures.ts";
import { routeAccessEntry } from "./route-access.fixtures.ts";
import { versionCheckEntry } from "./version-check.fixtures.ts";
import { dataLoadEntry } from "./data-load.fixtures.ts";
import { sessionEntry } from "./session.fixtures.ts";
import { policyGateEntry } from "./policy-gate.fixtures.ts";
import { signUpEntry } from "./sign-up.fixtures.ts";
import { recaptchaLoadEntry } from "./recaptcha-load.fixtures.ts";
import { liveRiskEntry } from "./live-risk.fixtures.ts";
import { formSubmitEntry } from "./form-submit.fixtures.ts";
import { portfolioWizardEntry } from "./portfolio-wizard.fixtures.ts";
import { portfolioLifecycleEntry } from "./portfolio-lifecycle.fixtures.ts";
import { subscriptionEntry } from "./subscription.fixtures.ts";
import { whatIfEntry } from "./what-if.fixtures.ts";
import { optimiseEntry } from "./optimise.fixtures.ts";
import { bananaEntry } from "./banana.fixtures.ts";
import { investmentSimulatorEntry } from "./investment-simulator.fixtures.ts";
import { educationEntry } from "./education.fixtures.ts";

export type { MachineEntry } from "./machine-entry.ts";

export const machineRegistry: readonly MachineEntry[] = [
  appEntry,
  routeAccessEntry,
  versionCheckEntry,
  dataLoadEntry,
  sessionEntry,
  policyGateEntry,
  signUpEntry,
  recaptchaLoadEntry,
  liveRiskEntry,
  formSubmitEntry,
  portfolioWizardEntry,
  portfolioLifecycleEntry,
  subscriptionEntry,
  whatIfEntry,
  optimiseEntry,
  bananaEntry,
  investmentSimulatorEntry,
  educationEntry,
];

export function machineEntry(id: string): MachineEntry {
  const entry = machineRegistry.find((e) => e.machine.id === id);
  if (!entry)
    throw new Error(
      `Unknown machine "${id}"; known: ${machineRegistry.map((e) => e.machine.id).join(", ")}`,
    );
  return entry;
}
