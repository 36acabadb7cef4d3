import { msg } from "@lingui/core/macro";
import type { MessageDescriptor } from "@lingui/core";
import type { SimulatorIssue } from "../../../machines/investment-simulator.machine.ts";
import type { SimulationMode } from "../../contract/analytics.ts";
import type { useSimulator } from "./use-simulator.ts";

/** What the screen's parts send to the simulator's machine. */
export type Send = ReturnType<typeof useSimulator>[1];

export const issueText: Record<SimulatorIssue, MessageDescriptor> = {
  required: msg`Required.`,
  range: msg`Out of the allowed range.`,
  integer: msg`A whole number, please.`,
  nothingInvested: msg`Put in an initial amount or a monthly contribution above 0.`,
  noAssets: msg`Add at least one asset.`,
  duplicateAsset: msg`Each asset only once.`,
  tooManyAssets: msg`At most 500 assets.`,
};

export const PATH_CHOICES = [1_000, 10_000, 50_000] as const;

/** The three assumptions of PRODUCT.md "Simulator assumptions", as a person reads them. */
export const modeNames: Record<SimulationMode, MessageDescriptor> = {
  equilibrium: msg`Equilibrium (CAPM)`,
  historical: msg`Historical (block bootstrap)`,
  own: msg`My own`,
};
export const modeHints: Record<SimulationMode, MessageDescriptor> = {
  equilibrium: msg`The portfolio's expected return from the CAPM and its volatility over its longest common history. The default.`,
  historical: msg`Each year a block of 12 consecutive months drawn at random from the portfolio's own past, with no drift added.`,
  own: msg`The expected annual return and volatility you type.`,
};
export const MODES = ["equilibrium", "historical", "own"] as const;

/** The id of the assumptions' fieldset: the printed assumptions link to it to edit them. */
export const ASSUMPTIONS_ID = "simulator-assumptions";
