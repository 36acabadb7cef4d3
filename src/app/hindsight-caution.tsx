import { Trans } from "@lingui/react/macro";
import type { Locale } from "../contract/common.ts";
import { formatLongDate } from "../ui/format.ts";
import { TermLink } from "./term-link.tsx";

/**
 * Whether a backtest or crisis replay looks at its portfolio with hindsight (docs/decisions.md,
 * "Hindsight caution"): its window starts before the market day its assets were chosen on. What-ifs
 * run on the holdings as they are now, so that day is the market's today (a saved portfolio's
 * "saved on" is a calendar date, on another clock in replay mode); every window the market offers
 * ends on or before it. ISO days compare as strings.
 */
export function chosenWithHindsight(windowStart: string, chosenOn: string): boolean {
  return windowStart < chosenOn;
}

/** The caution on a backtest or crisis replay of assets chosen over its window. */
export function HindsightCaution({
  kind,
  windowStart,
  chosenOn,
  locale,
}: {
  kind: "backtest" | "scenario";
  windowStart: string;
  chosenOn: string;
  locale: Locale;
}) {
  if (!chosenWithHindsight(windowStart, chosenOn)) return null;
  const from = formatLongDate(windowStart, locale);
  const chosen = formatLongDate(chosenOn, locale);
  return (
    <aside className="caution-note" data-testid="hindsight-caution" data-kind={kind}>
      <p>
        <strong>
          <Trans>Chosen with hindsight.</Trans>
        </strong>{" "}
        {kind === "backtest" ? (
          <Trans>
            This portfolio holds assets chosen as of {chosen} (market date), knowing how they did
            since {from}, and only among assets still traded then: a backtest of them looks better
            than what an investor choosing on {from} could have got. It is not a forecast.
          </Trans>
        ) : (
          <Trans>
            This portfolio holds assets chosen as of {chosen} (market date), after this crisis, and
            only among assets still traded then: its replay shows how they did, not how a portfolio
            chosen before {from} would have. It is not a forecast.
          </Trans>
        )}
      </p>
      <p>
        <TermLink term="hindsight-bias">
          <Trans>Hindsight and survivorship bias: what it means</Trans>
        </TermLink>
      </p>
    </aside>
  );
}
