import { Trans, useLingui } from "@lingui/react/macro";
import { useId, useState } from "react";
import type { DraftAsset, DraftEvent } from "../../../machines/portfolio-lifecycle.machine.ts";
import type { Locale } from "../../contract/common.ts";
import { formatMoney, formatPercent } from "../../ui/format.ts";
import { parseAmount } from "./wizard-parts.tsx";

/** An amount cell: typed freely, sent when the user leaves it or presses Enter. */
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
  const [text, setText] = useState(String(asset.investedAmount));
  const [seen, setSeen] = useState(asset.investedAmount);
  if (seen !== asset.investedAmount) {
    setSeen(asset.investedAmount);
    setText(String(asset.investedAmount));
  }
  const commit = () => {
    const v = parseAmount(text, locale);
    if (v === null) setText(String(asset.investedAmount));
    else if (v !== asset.investedAmount) onCommit(v);
  };
  return (
    <input
      aria-label={label}
      inputMode="decimal"
      value={text}
      onChange={(e) => setText(e.target.value)}
      onBlur={commit}
      onKeyDown={(e) => {
        if (e.key === "Enter") {
          e.preventDefault();
          commit();
        }
      }}
    />
  );
}

export interface HoldingsEditorProps {
  readonly assets: readonly DraftAsset[];
  readonly currency: "EUR" | "USD";
  readonly locale: Locale;
  readonly send: (event: DraftEvent) => void;
  /** Assets that may be added (not held yet). */
  readonly candidates: readonly { id: string; name: string }[];
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
  const [addAmount, setAddAmount] = useState("");
  const total = assets.reduce((s, a) => s + Math.max(0, a.investedAmount), 0);
  const totalText = formatMoney(total, currency, locale);
  const offered = candidates.filter((c) => !assets.some((a) => a.id === c.id));
  return (
    <div>
      <div className="table-scroll">
        <table className="data-table holdings">
          <caption>{t`Your assets`}</caption>
          <thead>
            <tr>
              <th scope="col">{t`Asset`}</th>
              <th scope="col">{t`Amount (${currency})`}</th>
              <th scope="col">{t`Weight`}</th>
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
                  <td>
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
                  <td>
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
      {readOnly || offered.length === 0 ? null : (
        <div className="actions-row">
          <div className="field">
            <label htmlFor={addId}>{t`Add an asset`}</label>
            <select id={addId} value={adding} onChange={(e) => setAdding(e.target.value)}>
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
            <input
              id={addAmountId}
              inputMode="decimal"
              value={addAmount}
              onChange={(e) => setAddAmount(e.target.value)}
            />
          </div>
          <button
            type="button"
            className="button secondary"
            disabled={!adding}
            onClick={() => {
              const c = offered.find((x) => x.id === adding);
              const v = parseAmount(addAmount, locale);
              if (!c) return;
              send({
                type: "asset.add",
                id: c.id,
                name: c.name,
                ...(v !== null ? { investedAmount: v } : {}),
              });
              setAdding("");
              setAddAmount("");
            }}
          >
            <Trans>Add</Trans>
          </button>
        </div>
      )}
    </div>
  );
}
