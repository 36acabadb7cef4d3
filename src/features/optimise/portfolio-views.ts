/**
 * What the optimisation screens reuse from the portfolio screens, as the optimisation issue asks:
 * the full analysis view, the current portfolio and the plan's permissions. One
 * module names the dependency (features otherwise do not import each other).
 */
// eslint-disable-next-line no-restricted-imports -- the optimised portfolio's analysis is the portfolio analysis view
export { AnalysisView } from "../portfolios/analysis-view.tsx";
// eslint-disable-next-line no-restricted-imports -- the portfolio being built or saved
export { useCurrentPortfolio, type CurrentPortfolio } from "../portfolios/use-current-portfolio.ts";
// eslint-disable-next-line no-restricted-imports -- the plan's permissions of the current product
export { usePermissions } from "../portfolios/use-wizard.ts";
