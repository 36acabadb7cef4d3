import { msg } from "@lingui/core/macro";
import type { MessageDescriptor } from "@lingui/core";
import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useState } from "react";
import { Link } from "react-router-dom";
import {
  bananaIssues,
  pricesOf,
  type BananaInput,
  type BananaIssue,
} from "../../../machines/banana.machine.ts";
import { pathFor } from "../../app/paths.ts";
import type { ScreenProps } from "../../app/route-table.ts";
import { useServices } from "../../app/services.tsx";
import { useSession } from "../../app/session/use-session.ts";
import { endpoints } from "../../contract/endpoints.ts";
import { BANANA_MAX_INVESTMENT, BANANA_MIN_INVESTMENT } from "../../contract/banana.ts";
import { TextField } from "../../ui/form.tsx";
import { formatDate, formatMoney, formatNumber } from "../../ui/format.ts";
import { msgCodeText } from "../../ui/msg-code-text.ts";
import { PageHeading } from "../../ui/page-heading.tsx";
import { Spinner } from "../../ui/spinner.tsx";
import { BananaEditorView } from "./banana-edit-section.tsx";
import { HoldingsTable } from "./banana-portfolio-screen.tsx";
import { regionNames, regions } from "./banana-format.ts";
import { LoadFailed } from "../../ui/load-failed.tsx";
import { StockPicker } from "./stock-picker.tsx";
import { useBanana } from "./use-banana.ts";
import { TermLinks } from "../../app/term-link.tsx";
import "./banana-account.css";
import "./banana-challenge.css";

const DRAFT_KEY = "banana-draft";

/** Why the portfolio cannot be saved yet, in the user's words. */
const issueText: Record<BananaIssue, MessageDescriptor> = {
  NAME_REQUIRED: msg`Give the portfolio a name (up to 80 characters).`,
  TOO_FEW_ASSETS: msg`Add at least one stock.`,
  TOO_MANY_ASSETS: msg`At most 50 stocks.`,
  SHARES_REQUIRED: msg`Every stock needs a number of shares.`,
  FRACTIONAL_SHARES: msg`Shares are bought whole: no fractions.`,
  TOTAL_TOO_LOW: msg`The total is below the budget.`,
  TOTAL_TOO_HIGH: msg`The total is above the budget.`,
};

/** The draft kept in this tab, so a reload does not lose the stocks chosen. */
function readDraft(): BananaInput["draft"] | undefined {
  try {
    const raw = sessionStorage.getItem(DRAFT_KEY);
    return raw ? (JSON.parse(raw) as BananaInput["draft"]) : undefined;
  } catch {
    return undefined;
  }
}

function Rules({ locale }: { locale: ScreenProps["locale"] }) {
  const { t } = useLingui();
  const min = formatNumber(BANANA_MIN_INVESTMENT, locale);
  const max = formatNumber(BANANA_MAX_INVESTMENT, locale);
  const monkeys = formatNumber(10_000, locale);
  return (
    <section className="card banana-rules" aria-labelledby="banana-rules-title">
      <h2 id="banana-rules-title">
        <Trans>The rules</Trans>
      </h2>
      <ul>
        <li>
          <Trans>
            Choose a region: Europe (in euros) or the USA (in dollars). You play with {max} of the
            region&apos;s currency and must invest between {min} and {max}.
          </Trans>
        </li>
        <li>
          <Trans>
            Pick 1 to 50 stocks of that region. Shares are bought whole, at the last close of the
            market day shown.
          </Trans>
        </li>
        <li>
          <Trans>
            When you save, a monkey picks the same number of stocks at random from the same region
            and day with the same budget. You compete against it, against {monkeys} more monkeys and
            against the region&apos;s index.
          </Trans>
        </li>
        <li>
          <Trans>
            Your return shows from the next market day. You can change your stocks every day between
            10:00 and 22:00 UTC; the community ranking orders everybody by return since creation.
          </Trans>
        </li>
      </ul>
      <TermLinks
        label={t`In the dictionary:`}
        terms={[
          ["banana-challenge", t`Banana challenge`],
          ["random-portfolio", t`Random portfolio`],
          ["share", t`Share`],
          ["closing-price", t`Closing price`],
          ["stock-market-index", t`Stock market index`],
        ]}
      />
    </section>
  );
}

/**
 * The banana challenge (PRODUCT.md "Banana challenge"): the rules, the region, the stock picker
 * with its live budget, and the save that draws the monkey.
 */
export default function BananaChallengeScreen({ locale }: ScreenProps) {
  const { t, i18n } = useLingui();
  const [input] = useState<BananaInput>(() => ({
    draft: { name: t`My banana portfolio`, ...readDraft() },
  }));
  const [state, send] = useBanana(input);
  const c = state.context;
  const prices = pricesOf(c.universe);
  const issues = bananaIssues(c.name, c.picks, prices);
  const [tried, setTried] = useState(false);
  const { http } = useServices();
  const [client] = useSession((s) => s.context.client);
  const canEdit = Boolean(client?.permissions.simMonk.management.edit);

  // Keep the draft while it is being made; a saved portfolio (or one being changed) leaves none.
  useEffect(() => {
    try {
      if (!state.matches("create") || state.matches({ create: "saved" }))
        sessionStorage.removeItem(DRAFT_KEY);
      else if (c.region || c.picks.length)
        sessionStorage.setItem(
          DRAFT_KEY,
          JSON.stringify({ region: c.region, name: c.name, picks: c.picks }),
        );
    } catch {
      // Storage unavailable (private mode): the draft lives only in the page.
    }
  }, [state, c.region, c.name, c.picks]);

  // The portfolio changed elsewhere while it was being changed here: it is read again, and the
  // change starts over from it.
  const conflictOn = state.matches({ edit: "conflict" }) ? c.portfolio?.id : undefined;
  useEffect(() => {
    if (conflictOn === undefined) return;
    let live = true;
    void http
      .call(endpoints.bananaPortfolio, { params: { id: conflictOn } })
      .then((portfolio) => live && send({ type: "portfolio.reloaded", portfolio }))
      .catch(() => {});
    return () => {
      live = false;
    };
  }, [conflictOn, http, send]);

  const mine = pathFor("account-banana-challenge", locale);
  const heading = (
    <PageHeading
      title={t`Banana challenge`}
      summary={t`Pick stocks and compete against the community and the monkey.`}
    />
  );

  // The portfolio just saved, being changed at once (inside the 10:00-22:00 UTC window).
  if (state.matches("edit") && c.portfolio) {
    const changed = c.portfolio;
    const page = pathFor("account-banana-portfolio", locale, { id: String(changed.id) });
    return (
      <div className="banana-challenge">
        {heading}
        <section className="card" aria-labelledby="banana-change-title">
          <h2 id="banana-change-title">{t`Change the stocks`}</h2>
          {state.matches({ edit: "saved" }) ? (
            <p className="form-message success" role="status" data-testid="banana-edit-saved">
              <Trans>Saved: your stocks changed at the day&apos;s closes.</Trans>
            </p>
          ) : (
            <BananaEditorView state={state} send={send} portfolio={changed} locale={locale} />
          )}
        </section>
        <p className="actions-row">
          <Link className="button primary" to={page}>
            <Trans>Open the portfolio</Trans>
          </Link>
          <Link to={mine}>
            <Trans>My banana challenge</Trans>
          </Link>
        </p>
      </div>
    );
  }

  if (state.matches({ create: "loadingCapacity" }))
    return (
      <div className="banana-challenge">
        {heading}
        <Spinner label={t`Loading the challenge…`} />
      </div>
    );
  if (state.matches({ create: "loadFailed" }))
    return (
      <div className="banana-challenge">
        {heading}
        <LoadFailed error={c.error} onRetry={() => send({ type: "failure.retry" })} />
      </div>
    );

  if (state.matches({ create: "saved" }) && c.saved) {
    const saved = c.saved;
    const savedName = saved.name;
    const page = pathFor("account-banana-portfolio", locale, { id: String(saved.id) });
    return (
      <div className="banana-challenge">
        {heading}
        <div className="form-message success" role="status" data-testid="banana-saved">
          <Trans>
            Saved: {savedName}. Your monkey has drawn its portfolio; the race starts at the next
            market day&apos;s close.
          </Trans>
        </div>
        <div className="banana-two">
          <section className="card" aria-labelledby="banana-yours-title">
            <h2 id="banana-yours-title">{t`Your holdings`}</h2>
            <HoldingsTable
              holdings={saved.holdings}
              total={saved.totalInvested}
              currency={saved.currency}
              caption={t`Your holdings`}
              locale={locale}
            />
          </section>
          <section className="card" aria-labelledby="banana-drawn-title">
            <h2 id="banana-drawn-title">{t`The monkey's holdings`}</h2>
            <HoldingsTable
              holdings={saved.monkey.holdings}
              total={saved.monkey.totalInvested}
              currency={saved.currency}
              caption={t`The monkey's holdings`}
              locale={locale}
            />
          </section>
        </div>
        <p className="actions-row">
          <Link className="button primary" to={page}>
            <Trans>Open the portfolio</Trans>
          </Link>
          <Link to={mine}>
            <Trans>My banana challenge</Trans>
          </Link>
          {canEdit && saved.remainingEditions !== 0 ? (
            <button
              type="button"
              className="button"
              onClick={() => send({ type: "edit.start", portfolio: saved })}
            >
              <Trans>Change the stocks</Trans>
            </button>
          ) : null}
          <button
            type="button"
            className="button ghost"
            onClick={() => {
              setTried(false);
              send({ type: "start.again" });
            }}
          >
            <Trans>Start another portfolio</Trans>
          </button>
        </p>
      </div>
    );
  }

  if (state.matches({ create: "choosingRegion" }) || !c.universe) {
    const capacity = c.capacity ?? { eu: 0, usa: 0 };
    const none = capacity.eu === 0 && capacity.usa === 0;
    return (
      <div className="banana-challenge">
        {heading}
        <Rules locale={locale} />
        <section className="card" aria-labelledby="banana-region-title">
          <h2 id="banana-region-title">{t`Choose a region`}</h2>
          {none ? (
            <p className="notice" data-testid="banana-no-capacity">
              <Trans>
                Your plan has no banana portfolios left to create. See them in{" "}
                <Link to={mine}>my banana challenge</Link>.
              </Trans>
            </p>
          ) : null}
          <ul className="banana-regions">
            {regions.map((r) => {
              const left = formatNumber(capacity[r], locale);
              return (
                <li key={r}>
                  <button
                    type="button"
                    className={c.region === r ? "button primary" : "button ghost"}
                    disabled={capacity[r] === 0 || state.matches({ create: "loadingUniverse" })}
                    onClick={() => send({ type: "region.choose", region: r })}
                    aria-describedby={`banana-capacity-${r}`}
                  >
                    {i18n._(regionNames[r])}
                  </button>
                  <span id={`banana-capacity-${r}`} className="muted">
                    {capacity[r] === 0 ? (
                      <Trans>no places left</Trans>
                    ) : (
                      <Trans>{left} left to create</Trans>
                    )}
                  </span>
                </li>
              );
            })}
          </ul>
          {state.matches({ create: "loadingUniverse" }) ? (
            <Spinner label={t`Loading the region's stocks…`} />
          ) : null}
        </section>
      </div>
    );
  }

  const universe = c.universe;
  const saving = state.matches({ create: "creating" });
  const day = formatDate(universe.date, locale);
  const region = i18n._(regionNames[universe.region]);
  return (
    <div className="banana-challenge">
      {heading}
      <p className="actions-row">
        <span>
          <Trans>
            Region: <strong>{region}</strong>. Shares at the closes of {day} (market date).
          </Trans>
        </span>
        <button
          type="button"
          className="link-button"
          disabled={saving}
          onClick={() => send({ type: "region.change" })}
        >
          <Trans>Change the region</Trans>
        </button>
        {universe.simulated ? (
          <span className="muted">
            <Trans>Prices of the simulated market.</Trans>
          </span>
        ) : null}
      </p>
      <form
        className="banana-form"
        onSubmit={(e) => {
          e.preventDefault();
          setTried(true);
          if (state.matches({ create: "failed" })) send({ type: "failure.retry" });
          else send({ type: "portfolio.save" });
        }}
        noValidate
      >
        <TextField
          label={t`Name of the portfolio`}
          value={c.name}
          maxLength={80}
          required
          disabled={saving}
          onChange={(e) => send({ type: "name.change", name: e.target.value })}
          error={tried && issues.includes("NAME_REQUIRED") ? i18n._(issueText.NAME_REQUIRED) : null}
        />
        <StockPicker
          stocks={universe.stocks}
          picks={c.picks}
          prices={prices}
          currency={universe.currency}
          locale={locale}
          disabled={saving}
          onAdd={(symbol) => send({ type: "stock.add", symbol })}
          onRemove={(symbol) => send({ type: "stock.remove", symbol })}
          onShares={(symbol, shares) => send({ type: "shares.change", symbol, shares })}
        />
        {tried && issues.length ? (
          <ul className="form-message error banana-issues" role="alert">
            {issues.map((issue) => (
              <li key={issue}>{i18n._(issueText[issue])}</li>
            ))}
          </ul>
        ) : null}
        {state.matches({ create: "failed" }) && c.error ? (
          <p className="form-message error" role="alert" data-testid="banana-error">
            {i18n._(msgCodeText[c.error])}
          </p>
        ) : null}
        <p className="actions-row">
          <button type="submit" className="button primary" disabled={saving}>
            {saving ? t`Saving and drawing the monkey…` : t`Save and draw my monkey`}
          </button>
          <span className="muted">
            {formatMoney(BANANA_MIN_INVESTMENT, universe.currency, locale)} –{" "}
            {formatMoney(BANANA_MAX_INVESTMENT, universe.currency, locale)}
          </span>
        </p>
      </form>
    </div>
  );
}
