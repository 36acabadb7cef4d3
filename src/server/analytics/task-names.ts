// The names of the worker threads' tasks, apart from the table that runs them (tasks.ts), so
// that what calls a task by name does not import every module the table runs.
export const TASK_NAMES = [
  "analyse",
  "optimise",
  "simulate",
  "whatIf",
  "universeStats",
  "portfolioRisk",
  "proposeWeights",
  "pastPerformance",
  "analyseRequest",
  "optimiseRequest",
  "simulateRequest",
  "whatIfRequest",
  "pastPerformanceRequest",
] as const;

export type TaskName = (typeof TASK_NAMES)[number];
