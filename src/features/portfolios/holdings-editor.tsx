import { Trans, useLingui } from "@lingui/react/macro";
import { useId, useState } from "react";
import type { DraftAsset, DraftEvent } from "../../../machines/portfolio-lifecycle.machine.ts";
import type { Locale } from "../../contract/common.ts";
import { formatMoney, formatPercent } from "../../ui/format.ts";
import { MoneyInput } from "../../ui/number-input.tsx";

/** An amount cell in the user's money format: sent when the user leaves it or presses Enter. */
function AmountInput({
  asset,
  label,
  locale,
  onCommit,
}: {
  asset: DraftAsset;
  label: string;
  locale: Locale;
  onCommit: (value: number) => void;
}) {
  return (
    <MoneyInput
      aria-label={label}
      value={asset.investedAmount}
      locale={locale}
      onCommit={(v) => {
        if (v !== null && v !== asset.investedAmount) onCommit(v);
      }}
      onKeyDown={(e) => {
        // Enter sends the amount, not the form around the table.
        if (e.key === "Enter") e.preventDefault();
      }}
    />
  );
}

export interface HoldingsEditorProps {
  readonly assets: readonly DraftAsset[];
  readonly currency: "EUR" | "USD";
  readonly locale: Locale;
  readonly send: (event: DraftEvent) => void;
  /**
   * Assets that may be added (not held yet); null while they are being loaded, when the row to
   * add one is drawn disabled, so that nothing below it moves when they arrive.
   */
  readonly candidates: readonly { id: string; name: string }[] | null;
  readonly readOnly?: boolean;
}

/** The holdings of a portfolio being composed or edited: amounts, removal, addition (section 4). */
export function HoldingsEditor({
  assets,
  currency,
  locale,
  send,
  candidates,
  readOnly,
}: HoldingsEditorProps) {
  const { t } = useLingui();
  const addId = useId();
  const addAmountId = useId();
  const [adding, setAdding] = useState("");
  const [addAmount, setAddAmount] = useState<number | null>(null);
  const total = assets.reduce((s, a) => s + Math.max(0, a.investedAmount), 0);
  const totalText = formatMoney(total, currency, locale);
  const amountHeading = t`Amount (${currency})`;
  const weightHeading = t`Weight`;
  const loadingCandidates = candidates === null;
  const offered = (candidates ?? []).filter((c) => !assets.some((a) => a.id === c.id));
  return (
    <div>
      {/* A region of its own: at phone width it scrolls (read only) or becomes cards (editing). */}
      <div className="table-scroll" role="region" aria-label={t`Your assets`} tabIndex={0}>
        <table className={readOnly ? "data-table holdings" : "data-table holdings editable"}>
          <caption>{t`Your assets`}</caption>
          <thead>
            <tr>
              <th scope="col">{t`Asset`}</th>
              <th scope="col">{amountHeading}</th>
              <th scope="col">{weightHeading}</th>
              {readOnly ? null : <th scope="col">{t`Actions`}</th>}
            </tr>
          </thead>
          <tbody>
            {assets.map((a) => {
              const assetName = a.name;
              return (
                <tr key={a.id} data-asset={a.id}>
                  <th scope="row">
                    {a.name} <span className="muted">({a.id})</span>
                  </th>
                  <td data-label={amountHeading}>
                    {readOnly ? (
                      formatMoney(a.investedAmount, currency, locale)
                    ) : (
                      <AmountInput
                        asset={a}
                        label={t`Amount in ${assetName}`}
                        locale={locale}
                        onCommit={(v) =>
                          send({ type: "amount.change", id: a.id, investedAmount: v })
                        }
                      />
                    )}
                  </td>
                  <td data-label={weightHeading}>
                    {total > 0 ? formatPercent(Math.max(0, a.investedAmount) / total, locale) : "—"}
                  </td>
                  {readOnly ? null : (
                    <td>
                      <button
                        type="button"
                        className="link-button"
                        onClick={() => send({ type: "asset.remove", id: a.id })}
                      >
                        <Trans>Remove</Trans>
                        <span className="visually-hidden"> {a.name}</span>
                      </button>
                    </td>
                  )}
                </tr>
              );
            })}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">{t`Total`}</th>
              <td data-testid="holdings-total">{totalText}</td>
              <td>{total > 0 ? formatPercent(1, locale) : "—"}</td>
              {readOnly ? null : <td />}
            </tr>
          </tfoot>
        </table>
      </div>
      <p className="field-hint">
        <Trans>An amount of zero removes the asset.</Trans>
      </p>
      {readOnly || (!loadingCandidates && offered.length === 0) ? null : (
        <div className="actions-row" aria-busy={loadingCandidates}>
          <div className="field">
            <label htmlFor={addId}>{t`Add an asset`}</label>
            <select
              id={addId}
              value={adding}
              disabled={loadingCandidates}
              onChange={(e) => setAdding(e.target.value)}
            >
              <option value="">{t`Choose an asset`}</option>
              {offered.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name} ({c.id})
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor={addAmountId}>{t`Amount`}</label>
            <MoneyInput
              id={addAmountId}
              value={addAmount}
              locale={locale}
              disabled={loadingCandidates}
              onValueChange={setAddAmount}
              onKeyDown={(e) => {
                if (e.key === "Enter") e.preventDefault();
              }}
            />
          </div>
          <button
            type="button"
            className="button secondary"
            disabled={!adding}
            onClick={() => {
              const c = offered.find((x) => x.id === adding);
              const v = addAmount;
              if (!c) return;
              send({
                type: "asset.add",
                id: c.id,
                name: c.name,
                ...(v !== null ? { investedAmount: v } : {}),
              });
              setAdding("");
              setAddAmount(null);
            }}
          >
            <Trans>Add</Trans>
          </button>
        </div>
      )}
    </div>
  );
}
