// The task table the worker threads run: the engine's work (engine-tasks.ts) and whole API
// requests run in a worker on the market the request thread named.
import type { AnalyseRequest, SimulateRequest, WhatIfRequest } from "../../contract/analytics.ts";
import { analysePortfolio, type AnalysisInput } from "../../engine/analysis.ts";
import { pastPerformance } from "../../engine/history/past-performance.ts";
import { analyseAt, type Runner } from "./analyse.ts";
import {
  optimise,
  portfolioRisk,
  proposeWeights,
  simulate,
  universeStats,
  whatIf,
} from "./engine-tasks.ts";
import { optimiseAt, simulateAt, type OptimiseJob } from "./optimise.ts";
import { pastPerformanceAt, type PastPerformanceRequest } from "./past-performance.ts";
import type { TaskName } from "./task-names.ts";
import { whatIfAt } from "./whatif.ts";
import { viewOfRef, type MarketRef } from "./worker-market.ts";

export type { TaskName } from "./task-names.ts";

/** A whole API request run in a worker, on the market the request thread named. */
interface RequestInput<R> {
  readonly market: MarketRef;
  readonly request: R;
}

/** The engine, called directly: what a request task runs inside its worker. */
const direct: Runner = async <T>(task: TaskName, input: unknown) =>
  (tasks[task] as (i: unknown) => T | Promise<T>)(input);

/** The engine's work, run by the worker threads. */
export const tasks = {
  analyse: (input: AnalysisInput) => analysePortfolio(input),
  optimise,
  simulate,
  whatIf,
  universeStats,
  portfolioRisk,
  proposeWeights,
  pastPerformance,
  analyseRequest: (input: RequestInput<AnalyseRequest>) =>
    analyseAt(viewOfRef(input.market), direct, input.request),
  optimiseRequest: (input: RequestInput<OptimiseJob>) =>
    optimiseAt(viewOfRef(input.market), direct, input.request),
  simulateRequest: (input: RequestInput<SimulateRequest>) =>
    simulateAt(viewOfRef(input.market), direct, input.request),
  whatIfRequest: (input: RequestInput<WhatIfRequest>) =>
    whatIfAt(viewOfRef(input.market), direct, input.request),
  pastPerformanceRequest: (input: RequestInput<PastPerformanceRequest>) =>
    pastPerformanceAt(viewOfRef(input.market), direct, input.request),
} as const satisfies Record<TaskName, (input: never) => unknown>;
