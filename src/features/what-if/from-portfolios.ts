/**
 * What the what-if screens reuse from the portfolio feature: the portfolio being built or saved,
 * the plan's permissions and the plan lock. They belong in src/app (shared by the portfolio,
 * what-if and optimisation screens); until they move there, this is the one place that imports
 * them, so that the move changes one file.
 */
/* eslint-disable no-restricted-imports -- shared portfolio state, see above */
export { useCurrentPortfolio, type CurrentPortfolio } from "../portfolios/use-current-portfolio.ts";
export { usePermissions } from "../portfolios/use-wizard.ts";
/* eslint-enable no-restricted-imports */
