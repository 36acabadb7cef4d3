import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import type { WhatIfFactor } from "../contract/analytics.ts";

/** The market factors of the what-if and of the past performance's regression, by name. */
export const factorNames: Record<WhatIfFactor, MessageDescriptor> = {
  market: msg`Stock market`,
  rates: msg`Interest rates`,
  crypto: msg`Crypto`,
  commodities: msg`Commodities`,
  inflation: msg`Inflation`,
};
