import type { SnapshotFrom } from "xstate";
import type { Currency } from "../../src/contract/analytics.ts";
import { requireCurrency } from "../../src/contract/portfolio-rules.ts";
import type { portfolioLifecycleMachine } from "../portfolio-lifecycle.machine.ts";
import type { portfolioWizardMachine } from "../portfolio-wizard.machine.ts";
import type { AccessFacts } from "./access-facts.ts";

export type PortfolioWizardSnapshot = SnapshotFrom<typeof portfolioWizardMachine>;
export type PortfolioLifecycleSnapshot = SnapshotFrom<typeof portfolioLifecycleMachine>;
export type PortfolioSnapshot = PortfolioWizardSnapshot | PortfolioLifecycleSnapshot;

const isWizard = (s: PortfolioSnapshot): s is PortfolioWizardSnapshot => "answers" in s.context;

/** Wizard states past q1 (the summary route and q2/q3 need them). */
const wizardInProgress = ["q2", "q3", "proposing", "summary"];
/** Lifecycle states of a portfolio not saved yet, or of an edition. */
const lifecycleInProgress = ["unsaved", "saving", "editing", "updating", "conflict", "reloading"];

// Both machines are flat: their state value is the name of a top-level state.
const stateOf = (s: PortfolioSnapshot): string => String(s.value);

/**
 * The route guards' "creation in progress" (portfolio-creation): a wizard past q1, or composed and
 * handed over; a lifecycle whose portfolio is composed but unsaved, or being edited.
 */
export function creationInProgress(snapshot: PortfolioSnapshot | null | undefined): boolean {
  if (!snapshot) return false;
  if (isWizard(snapshot)) {
    if (snapshot.status === "done") return snapshot.output != null;
    return snapshot.status === "active" && wizardInProgress.includes(stateOf(snapshot));
  }
  if (snapshot.status !== "active" || !lifecycleInProgress.includes(stateOf(snapshot)))
    return false;
  return snapshot.context.portfolio !== null || (snapshot.context.draft?.assets.length ?? 0) > 0;
}

/**
 * The route guards' "portfolio loaded" (portfolio-created): a wizard that reached its summary (or
 * composed its portfolio); a lifecycle holding a saved portfolio or a composed draft (not deleted).
 */
export function portfolioLoaded(snapshot: PortfolioSnapshot | null | undefined): boolean {
  if (!snapshot) return false;
  if (isWizard(snapshot)) {
    if (snapshot.status === "done") return snapshot.output != null;
    return snapshot.status === "active" && stateOf(snapshot) === "summary";
  }
  if (snapshot.status !== "active") return false;
  return snapshot.context.portfolio !== null || (snapshot.context.draft?.assets.length ?? 0) > 0;
}

/** Both facts for the route guards, from whichever portfolio actors the app is running. */
export function portfolioFacts(
  ...snapshots: readonly (PortfolioSnapshot | null | undefined)[]
): Pick<AccessFacts, "creationInProgress" | "portfolioLoaded"> {
  return {
    creationInProgress: snapshots.some(creationInProgress),
    portfolioLoaded: snapshots.some(portfolioLoaded),
  };
}

/**
 * The currency of the portfolio a snapshot holds (section 8): raises "Portfolio Currency is
 * undefined" when there is none.
 */
export function portfolioCurrency(snapshot: PortfolioSnapshot): Currency {
  if (isWizard(snapshot)) return requireCurrency(snapshot.context.answers.currency);
  const c = snapshot.context;
  return requireCurrency(c.draft ? c.draft.currency : c.portfolio?.currency);
}
