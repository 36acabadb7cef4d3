import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useRef, useState } from "react";
import { pricesOf } from "../../../machines/banana.machine.ts";
import type { BananaPortfolio } from "../../contract/banana.ts";
import type { Locale } from "../../contract/common.ts";
import { formatNumber } from "../../ui/format.ts";
import { msgCodeText } from "../../ui/msg-code-text.ts";
import { Spinner } from "../../ui/spinner.tsx";
import { currentWindow, EditWindowNotice, useNow } from "./edit-window.tsx";
import { LoadFailed } from "../../ui/load-failed.tsx";
import { StockPicker } from "./stock-picker.tsx";
import { useBanana } from "./use-banana.ts";
import "./banana-challenge.css";

/**
 * The editor: the banana machine in edit mode over the stock picker. It sells (0 shares) and buys at
 * the day's closes, sends the version it read, and follows the window on the clock.
 */
function BananaEditor({
  portfolio,
  locale,
  onSaved,
  onClose,
}: {
  portfolio: BananaPortfolio;
  locale: Locale;
  /** The page reads the portfolio again; `done` after a save (not after a conflict). */
  onSaved: (done: boolean) => void;
  onClose: () => void;
}) {
  const now = useNow();
  const [input] = useState(() => ({ portfolio, now }));
  const [state, send] = useBanana(input);
  const c = state.context;

  useEffect(() => {
    send({ type: "clock.tick", now });
  }, [now, send]);
  // A newer version read by the page (after a save or a conflict) is where the edit goes on from.
  useEffect(() => {
    if (portfolio.version !== c.portfolio?.version) send({ type: "portfolio.reloaded", portfolio });
  }, [portfolio, c.portfolio?.version, send]);
  // Once per save (or conflict) the page reads the portfolio again.
  const settled = state.matches({ edit: "saved" })
    ? `saved:${c.portfolio?.version ?? 0}`
    : state.matches({ edit: "conflict" })
      ? "conflict"
      : null;
  const reread = useRef(onSaved);
  useEffect(() => {
    reread.current = onSaved;
  });
  useEffect(() => {
    if (settled) reread.current(settled !== "conflict");
  }, [settled]);

  return (
    <BananaEditorView
      state={state}
      send={send}
      portfolio={portfolio}
      locale={locale}
      onClose={onClose}
    />
  );
}

type BananaState = ReturnType<typeof useBanana>[0];
type BananaSend = ReturnType<typeof useBanana>[1];

/**
 * What a banana machine in edit shows: the window closed, the region's stocks loading or not
 * loaded, a conflict, or the stock picker over the held stocks with the save (and the close, when
 * the editor can be closed). The portfolio's edit section and the challenge's page (a portfolio
 * just saved, changed at once) render it over their machine.
 */
export function BananaEditorView({
  state,
  send,
  portfolio,
  locale,
  onClose,
}: {
  state: BananaState;
  send: BananaSend;
  portfolio: BananaPortfolio;
  locale: Locale;
  onClose?: () => void;
}) {
  const { t, i18n } = useLingui();
  const c = state.context;
  if (state.matches({ edit: "windowClosed" })) {
    // The server's refusal, or the machine's clock outside the window (edits left but closed).
    const why = c.error ?? (portfolio.remainingEditions === 0 ? null : "BANANA_WINDOW_CLOSED");
    return (
      <p className="notice" data-testid="banana-edit-closed">
        {why ? `${i18n._(msgCodeText[why])} ` : null}
        {portfolio.remainingEditions === 0 ? <Trans>No edits are left.</Trans> : null}
      </p>
    );
  }
  if (state.matches({ edit: "loadingUniverse" }) || state.matches({ edit: "checkingWindow" }))
    return <Spinner label={t`Loading the region's stocks…`} />;
  if (state.matches({ edit: "loadFailed" }))
    return <LoadFailed error={c.error} onRetry={() => send({ type: "failure.retry" })} />;
  if (state.matches({ edit: "conflict" }))
    return (
      <p role="alert" className="form-message error">
        <Trans>The portfolio changed elsewhere: it has been reloaded, make the change again.</Trans>
      </p>
    );

  const universe = c.universe;
  if (!universe) return null;
  const updating = state.matches({ edit: "updating" });
  const heldNames = new Map(portfolio.holdings.map((h) => [h.symbol, h.name]));
  return (
    <form
      className="banana-form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        send({ type: state.matches({ edit: "failed" }) ? "failure.retry" : "portfolio.save" });
      }}
    >
      <StockPicker
        stocks={universe.stocks}
        picks={c.picks}
        prices={pricesOf(universe, c.portfolio)}
        currency={universe.currency}
        locale={locale}
        heldNames={heldNames}
        disabled={updating}
        onAdd={(symbol) => send({ type: "stock.add", symbol })}
        onRemove={(symbol) => send({ type: "stock.remove", symbol })}
        onShares={(symbol, shares) => send({ type: "shares.change", symbol, shares })}
      />
      {state.matches({ edit: "failed" }) && c.error ? (
        <p className="form-message error" role="alert">
          {i18n._(msgCodeText[c.error])}
        </p>
      ) : null}
      <p className="actions-row">
        <button type="submit" className="button primary" disabled={updating}>
          {updating ? t`Saving…` : t`Save the changes`}
        </button>
        {onClose ? (
          <button type="button" className="button ghost" onClick={onClose}>
            <Trans>Close the editor</Trans>
          </button>
        ) : null}
      </p>
    </form>
  );
}

/**
 * Editing a banana portfolio: inside the 10:00–22:00 UTC window (the server refuses outside it),
 * with the plan's edit permission and editions left.
 */
export function BananaEditSection({
  portfolio,
  locale,
  canEdit,
  onSaved,
}: {
  portfolio: BananaPortfolio;
  locale: Locale;
  canEdit: boolean;
  onSaved: () => void;
}) {
  const { t } = useLingui();
  const now = useNow();
  const window = currentWindow(portfolio.window, now);
  const remaining = portfolio.remainingEditions;
  const left = remaining === null ? null : formatNumber(remaining, locale);
  const [editing, setEditing] = useState(false);
  const [saved, setSaved] = useState(false);
  const mayOpen = canEdit && window.open && remaining !== 0;
  return (
    <section className="card" aria-labelledby="banana-edit-title">
      <h2 id="banana-edit-title">{t`Change the stocks`}</h2>
      <EditWindowNotice window={window} now={now} locale={locale} />
      {!canEdit ? (
        <p className="muted">
          <Trans>Editing is part of the paid plans.</Trans>
        </p>
      ) : left !== null ? (
        <p className="muted" data-testid="banana-editions-left">
          <Trans>Edits left: {left}</Trans>
        </p>
      ) : null}
      {saved ? (
        <p className="form-message success" role="status" data-testid="banana-edit-saved">
          <Trans>Saved: your stocks changed at the day&apos;s closes.</Trans>
        </p>
      ) : null}
      {editing && canEdit ? (
        <BananaEditor
          portfolio={portfolio}
          locale={locale}
          onSaved={(done) => {
            onSaved();
            if (done) {
              setEditing(false);
              setSaved(true);
            }
          }}
          onClose={() => setEditing(false)}
        />
      ) : mayOpen ? (
        <button
          type="button"
          className="button ghost"
          onClick={() => {
            setSaved(false);
            setEditing(true);
          }}
        >
          <Trans>Change the stocks</Trans>
        </button>
      ) : null}
    </section>
  );
}
