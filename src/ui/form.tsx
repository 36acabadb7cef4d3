import { useId, type InputHTMLAttributes, type ReactNode } from "react";

interface FieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, "id"> {
  readonly label: string;
  readonly hint?: ReactNode;
  readonly error?: string | null;
}

/** A labelled input; its hint and error are announced with it. */
export function TextField({ label, hint, error, ...input }: FieldProps) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  return (
    <div className={error ? "field has-error" : "field"}>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={[hintId, errorId].filter(Boolean).join(" ") || undefined}
        {...input}
      />
      {hint ? (
        <div id={hintId} className="field-hint">
          {hint}
        </div>
      ) : null}
      {error ? (
        <div id={errorId} className="field-error">
          {error}
        </div>
      ) : null}
    </div>
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
