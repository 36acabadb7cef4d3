import { useLingui } from "@lingui/react/macro";
import { passwordStrength } from "../../../machines/guards/password-strength.ts";

/** Weak, Medium or Strong as the user types; "Enter a password" while empty. */
export function PasswordStrengthMeter({ password }: { password: string }) {
  const { t } = useLingui();
  const strength = passwordStrength(password);
  const label = { empty: t`Enter a password`, weak: t`Weak`, medium: t`Medium`, strong: t`Strong` }[
    strength
  ];
  return (
    <div className={`strength strength-${strength}`} aria-live="polite">
      <span className="strength-bar" aria-hidden="true">
        <span />
      </span>
      <span>{label}</span>
    </div>
  );
}
