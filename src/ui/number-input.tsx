import { useState, type InputHTMLAttributes, type Ref } from "react";
import type { Locale } from "../contract/common.ts";
import { formatInputNumber, parseLocaleNumber } from "./parse-number.ts";

export interface NumberInputProps extends Omit<
  InputHTMLAttributes<HTMLInputElement>,
  "value" | "onChange" | "type"
> {
  /** The number shown (null: empty). */
  readonly value: number | null;
  readonly locale: Locale;
  /** Each change: the number typed so far, or null when the text is not a number (yet). */
  readonly onValueChange?: (value: number | null) => void;
  /** When the user leaves the field or presses Enter: the number, or null when it is not one. */
  readonly onCommit?: (value: number | null) => void;
  readonly maximumFractionDigits?: number;
  /** A money amount: shown with exactly two decimals when not being edited (`1,250.00`). */
  readonly money?: boolean;
  readonly ref?: Ref<HTMLInputElement>;
}

/**
 * A number or money input in the user's format: it shows `3.323,96` in Spanish and `3,323.96` in
 * English, accepts both while typing or pasting (src/ui/parse-number.ts), and shows the number
 * again in the user's format once the user leaves it (or presses Enter); while it has the focus
 * the person's text is kept as typed. A text that is not a number is marked invalid and, on
 * leaving, goes back to the last number. Money (`money`, or MoneyInput) always shows two decimals
 * when not being edited: `1,250.00`, `1.250,00`.
 */
export function NumberInput({
  value,
  locale,
  onValueChange,
  onCommit,
  maximumFractionDigits = 2,
  money = false,
  onBlur,
  onKeyDown,
  ...input
}: NumberInputProps) {
  const shown = (v: number | null) =>
    v === null
      ? ""
      : money
        ? formatInputNumber(v, locale, 2, 2)
        : formatInputNumber(v, locale, maximumFractionDigits);
  const [text, setText] = useState(() => shown(value));
  const [seen, setSeen] = useState<{ value: number | null; locale: Locale }>({ value, locale });
  // A new value from outside (or a new language) replaces what is shown, unless it is what the
  // text already says.
  if (seen.value !== value || seen.locale !== locale) {
    setSeen({ value, locale });
    if (parseLocaleNumber(text, locale) !== value || seen.locale !== locale) setText(shown(value));
  }
  const parsed = parseLocaleNumber(text, locale);
  const invalid = text.trim() !== "" && parsed === null;
  const commit = () => {
    if (parsed !== null) setText(shown(parsed));
    else if (invalid) setText(shown(value));
    onCommit?.(invalid ? value : parsed);
  };
  return (
    <input
      type="text"
      inputMode="decimal"
      autoComplete="off"
      {...input}
      aria-invalid={invalid || input["aria-invalid"] || undefined}
      value={text}
      onChange={(e) => {
        setText(e.target.value);
        onValueChange?.(parseLocaleNumber(e.target.value, locale));
      }}
      onBlur={(e) => {
        commit();
        onBlur?.(e);
      }}
      onKeyDown={(e) => {
        if (e.key === "Enter") commit();
        onKeyDown?.(e);
      }}
    />
  );
}

export type MoneyInputProps = Omit<NumberInputProps, "money" | "maximumFractionDigits">;

/**
 * The input of every money amount: a NumberInput that shows exactly two decimals in the user's
 * format when not being edited (`5,533.99`, `1,250.00`; Spanish `5.533,99`, `1.250,00`).
 */
export function MoneyInput(props: MoneyInputProps) {
  return <NumberInput {...props} money />;
}
