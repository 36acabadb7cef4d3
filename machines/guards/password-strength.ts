import { PASSWORD_MIN_LENGTH } from "../../src/contract/accounts.ts";

export type PasswordStrength = "empty" | "weak" | "medium" | "strong";

/** How many of lower case, upper case, digits and other characters the password uses. */
const characterClasses = (password: string) =>
  [/[a-z]/, /[A-Z]/, /\d/, /[^a-zA-Z\d]/].filter((re) => re.test(password)).length;

/**
 * Strength shown at sign-up (labels Weak, Medium, Strong; "Enter a password" when empty):
 * weak under 8 characters or with one kind of character; strong from 12 characters with three
 * kinds; medium otherwise. The server requires 8 characters; the form also refuses a weak one.
 */
export function passwordStrength(password: string): PasswordStrength {
  if (password.length === 0) return "empty";
  const classes = characterClasses(password);
  if (password.length < PASSWORD_MIN_LENGTH || classes < 2) return "weak";
  if (password.length >= 12 && classes >= 3) return "strong";
  return "medium";
}
