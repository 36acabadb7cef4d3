import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import type {
  Rebalancing,
  ShockKey,
  WhatIfProblem,
  WhatIfRuleProblem,
} from "../../../machines/what-if.machine.ts";
import type { WhatIfKind } from "../../contract/analytics-rules.ts";
import type { MsgCode } from "../../contract/msg-codes.ts";
import type { PermissionPath } from "../../contract/permissions.ts";
import { msgCodeText } from "../../ui/msg-code-text.ts";
import { whatIfPermission } from "../../contract/analytics-rules.ts";

export const shockNames: Record<ShockKey, MessageDescriptor> = {
  dRV: msg`Stock market`,
  dRF: msg`Interest rates (10-year yield)`,
  dCrypto: msg`Crypto (bitcoin)`,
  dMMPP: msg`Commodities`,
  inflation: msg`Inflation`,
};

export const shockHints: Record<ShockKey, MessageDescriptor> = {
  dRV: msg`Return of the stock market index, in %. -20 means the market falls 20%.`,
  dRF: msg`Change of the 10-year government bond yield, in percentage points. +1 means from 3% to 4%.`,
  dCrypto: msg`Return of bitcoin, in %.`,
  dMMPP: msg`Return of commodities (Brent oil), in %.`,
  inflation: msg`Change of year-on-year inflation, in percentage points.`,
};

export { factorNames } from "../../ui/factor-names.ts";

export const scenarioNames: Record<number, MessageDescriptor> = {
  0: msg`The 2008 financial crisis`,
  1: msg`The 2020 pandemic crash`,
  2: msg`The 2022 rate shock`,
  3: msg`The dot-com crash`,
};

export const scenarioStories: Record<number, MessageDescriptor> = {
  0: msg`Subprime mortgages, the fall of Lehman Brothers and a global recession.`,
  1: msg`Markets fell as COVID-19 spread and countries locked down.`,
  2: msg`Inflation soared and central banks raised rates fast: stocks and bonds fell together.`,
  3: msg`The internet bubble burst: technology stocks lost most of their value.`,
};

export const backtestNames: Record<string, MessageDescriptor> = {
  "1y": msg`1 year`,
  "3y": msg`3 years`,
  "5y": msg`5 years`,
  "10y": msg`10 years`,
};

export const rebalancingNames: Record<Rebalancing, MessageDescriptor> = {
  none: msg`Buy and hold`,
  monthly: msg`Rebalanced every month`,
  quarterly: msg`Rebalanced every quarter`,
  annual: msg`Rebalanced every year`,
};

export const kindNames: Record<WhatIfKind, MessageDescriptor> = {
  backtest: msg`Backtest`,
  scenario: msg`Real scenario`,
  custom: msg`Your own shocks`,
};

export const methodNames = {
  history: msg`Its own prices`,
  spliced: msg`Reconstructed, then its own prices`,
  proxy: msg`Reconstructed from its sensitivities`,
} as const;

const ruleText: Record<WhatIfRuleProblem, MessageDescriptor> = {
  NO_PORTFOLIO: msg`Build or open a portfolio first: the what-if runs on it.`,
  WHATIF_NEEDS_SHOCK: msgCodeText.WHATIF_NEEDS_SHOCK,
  SCENARIO_TYPE_INVALID: msg`Choose one of the four real scenarios.`,
  BACKTEST_NEEDS_ID: msg`Choose a backtest window: 1, 3, 5 or 10 years.`,
};

export const problemText = (problem: WhatIfProblem): MessageDescriptor =>
  problem in ruleText ? ruleText[problem as WhatIfRuleProblem] : msgCodeText[problem as MsgCode];

export const permissionOf = (kind: WhatIfKind): PermissionPath =>
  `whatIf.${whatIfPermission[kind]}` as PermissionPath;

/** Readable names of the market series the server names (its `sources` and benchmark). */
export { hasSeriesName, seriesName } from "../../ui/series-names.ts";
