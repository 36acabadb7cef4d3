import type { I18n } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import type { InfeasibleReason } from "../../../machines/optimise.machine.ts";
import type { Currency } from "../../contract/analytics.ts";
import type { Locale } from "../../contract/common.ts";
import type { OptimizationRuleViolation } from "../../contract/optimisation-rules.ts";
import { formatMoney, formatNumber, formatPercent } from "../../ui/format.ts";

/** Why an optimisation is blocked (the rules of sections 5 and 9), with its numbers. */
export function violationText(
  v: OptimizationRuleViolation,
  i18n: I18n,
  locale: Locale,
  currency: Currency,
): string {
  const d = v.detail;
  const money = (x: number | undefined) => formatMoney(x ?? 0, currency, locale);
  const int = (x: number | undefined) => formatNumber(x ?? 0, locale);
  switch (v.code) {
    case "MAX_LOSS_BELOW_MINIMUM_RISK": {
      const minimum = money(d.minimumMaxToLose95);
      const share = formatPercent(d.minimumFraction ?? 0, locale);
      const given = money(d.maxToLose95);
      return i18n._(
        msg`The maximum loss at 95% (${given}) must reach the minimum desired risk: ${share} of the amount invested, ${minimum}. Raise it to optimise.`,
      );
    }
    case "MAX_LOSS_REQUIRED":
      return i18n._(msg`Enter the maximum loss at 95% you accept over a month.`);
    case "INVALID_TOTAL_INVESTED":
      return i18n._(msg`The portfolio has no amount invested.`);
    case "CLIENT_LEVEL_BELOW_THRESHOLD": {
      const level = int(d.clientLevel);
      const threshold = int(d.threshold);
      return i18n._(
        msg`Optimisation needs an investor level of ${threshold}; your level is ${level}.`,
      );
    }
    case "ASSET_COUNT_ABOVE_LIMIT": {
      const count = int(d.assetCount);
      const max = int(d.maxAssets);
      return d.fromPortfolio
        ? i18n._(
            msg`The optimisation would consider ${count} assets; this portfolio was created for up to ${max} (your answer to “how many assets” in question 3), whatever your plan allows. Remove some.`,
          )
        : i18n._(
            msg`The optimisation would consider ${count} assets; your plan allows ${max}. Remove some.`,
          );
    }
    case "DESIRED_AMOUNT_REQUIRED":
      return i18n._(msg`Enter the number of assets you want (a whole number from 1).`);
    case "DESIRED_AMOUNT_ABOVE_LIMIT": {
      const desired = int(d.desiredAssetsAmount);
      const max = int(d.maxAssets);
      return d.fromPortfolio
        ? i18n._(
            msg`You asked for ${desired} assets; this portfolio was created for up to ${max} (your answer to “how many assets” in question 3), whatever your plan allows.`,
          )
        : i18n._(msg`You asked for ${desired} assets; your plan allows ${max}.`);
    }
    default:
      return i18n._(msg`This optimisation level does not exist.`);
  }
}

/** The constraint an optimisation could not meet, with the numbers that show it. */
export function infeasibleText(
  r: InfeasibleReason,
  i18n: I18n,
  locale: Locale,
  currency: Currency,
  total: number,
): string {
  const d = r.detail;
  const money = (x: number | undefined) => formatMoney(x ?? 0, currency, locale);
  const pct = (x: number | undefined) => formatPercent(x ?? 0, locale);
  switch (r.code) {
    case "MAX_LOSS_EXCEEDED": {
      const loss = money(d.cvar95Amount);
      const max = money(d.maxToLose95);
      return i18n._(
        msg`Constraint not met: maximum loss at 95%. The least risky portfolio with these options can lose ${loss} at 95% (CVaR) in a month, more than your maximum of ${max}. Raise the maximum or change the options.`,
      );
    }
    case "CVAR_CAP_INFEASIBLE": {
      const least = money((d.minimumCvar ?? 0) * total);
      const max = money((d.maxCvar ?? 0) * total);
      return i18n._(
        msg`Constraint not met: maximum loss at 95%. No mix of these assets loses less than ${least} at 95% (CVaR) in a month; your maximum is ${max}.`,
      );
    }
    case "BOUNDS_INFEASIBLE":
      return i18n._(
        msg`Constraint not met: kept assets' weights. Their minimum weights add up to more than 100%, or their maximums to less. Change the weights.`,
      );
    case "CARDINALITY_INFEASIBLE": {
      if (d.availableAssets !== undefined) {
        const available = formatNumber(d.availableAssets, locale);
        const asked = formatNumber(d.maxAssets ?? 0, locale);
        return i18n._(
          msg`Constraint not met: number of assets. You asked for ${asked}, but only ${available} assets can be considered: your portfolio's and those of the market with prices over the whole look-back window in your currency. Ask for ${available} or fewer.`,
        );
      }
      return i18n._(
        msg`Constraint not met: number of assets. The kept assets and their weights cannot fit in the number of assets you asked for. Ask for more assets or keep fewer.`,
      );
    }
    default: {
      const entries = Object.entries(d)
        .map(([k, v]) => `${k} ${Math.abs(v) < 1 ? pct(v) : formatNumber(v, locale)}`)
        .join(", ");
      const code = r.code;
      return i18n._(msg`Constraint not met (${code}): ${entries}.`);
    }
  }
}
