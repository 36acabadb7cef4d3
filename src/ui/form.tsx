import { useId, type InputHTMLAttributes, type ReactNode, type Ref } from "react";
import type { Locale } from "../contract/common.ts";
import { MoneyInput, NumberInput, type NumberInputProps } from "./number-input.tsx";

/** What a field gives its control: the id its label points to and the texts that describe it. */
export interface FieldControlProps {
  readonly id: string;
  readonly "aria-describedby": string | undefined;
  readonly "aria-invalid": true | undefined;
}

/**
 * A labelled control with its hint and its own error, below it: the control gets the label's id,
 * `aria-describedby` naming the hint and the error, and `aria-invalid` while there is an error.
 * Every validation message of a form is shown here, at its field, not at the top of the form.
 */
export function Field({
  label,
  hint,
  error,
  id: givenId,
  children,
}: {
  readonly label: ReactNode;
  readonly hint?: ReactNode;
  readonly error?: ReactNode;
  /** The control's id (one is made when not given). */
  readonly id?: string;
  readonly children: (control: FieldControlProps) => ReactNode;
}) {
  const madeId = useId();
  const id = givenId ?? madeId;
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  return (
    <div className={error ? "field has-error" : "field"}>
      <label htmlFor={id}>{label}</label>
      {children({
        id,
        "aria-describedby": [hintId, errorId].filter(Boolean).join(" ") || undefined,
        "aria-invalid": error ? true : undefined,
      })}
      {hint ? (
        <div id={hintId} className="field-hint">
          {hint}
        </div>
      ) : null}
      {error ? <FieldError id={errorId!}>{error}</FieldError> : null}
    </div>
  );
}

/** The error of one field (or one group of choices), shown below it and named by its describedby. */
export function FieldError({
  id,
  children,
}: {
  readonly id: string;
  readonly children: ReactNode;
}) {
  return (
    <div id={id} className="field-error">
      {children}
    </div>
  );
}

interface FieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, "id"> {
  readonly label: string;
  readonly hint?: ReactNode;
  readonly error?: string | null;
}

/** A labelled input; its hint and error are announced with it. */
export function TextField({ label, hint, error, ...input }: FieldProps) {
  return (
    <Field label={label} hint={hint} error={error}>
      {(control) => <input {...control} {...input} />}
    </Field>
  );
}

export interface NumberFieldProps extends Omit<
  NumberInputProps,
  "id" | "aria-describedby" | "aria-invalid" | "locale"
> {
  readonly label: ReactNode;
  readonly locale: Locale;
  readonly hint?: ReactNode;
  readonly error?: ReactNode;
  readonly id?: string;
  readonly inputRef?: Ref<HTMLInputElement>;
}

/** A labelled number in the user's format (NumberInput), with its hint and its own error. */
export function NumberField({ label, hint, error, id, inputRef, ...input }: NumberFieldProps) {
  return (
    <Field label={label} hint={hint} error={error} id={id}>
      {(control) => <NumberInput {...input} {...control} ref={inputRef} />}
    </Field>
  );
}

/**
 * A labelled money amount (MoneyInput: two decimals in the user's format when not being edited),
 * with its hint and its own error.
 */
export function MoneyField({
  label,
  hint,
  error,
  id,
  inputRef,
  ...input
}: Omit<NumberFieldProps, "money" | "maximumFractionDigits">) {
  return (
    <Field label={label} hint={hint} error={error} id={id}>
      {(control) => <MoneyInput {...input} {...control} ref={inputRef} />}
    </Field>
  );
}

export function CheckboxField({
  label,
  ...input
}: Omit<InputHTMLAttributes<HTMLInputElement>, "type" | "id"> & { readonly label: ReactNode }) {
  const id = useId();
  return (
    <div className="field checkbox">
      <input id={id} type="checkbox" {...input} />
      <label htmlFor={id}>{label}</label>
    </div>
  );
}

/** A form-level message: errors are alerts, confirmations are statuses. */
export function FormMessage({
  kind,
  children,
}: {
  readonly kind: "error" | "success";
  readonly children: ReactNode;
}) {
  return (
    <div className={`form-message ${kind}`} role={kind === "error" ? "alert" : "status"}>
      {children}
    </div>
  );
}
