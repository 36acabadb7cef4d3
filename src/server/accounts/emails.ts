import type { Locale } from "../../contract/common.ts";

export interface Email {
  readonly subject: string;
  readonly text: string;
}

export type AccountEmailPurpose = "confirm-email" | "recover-password" | "account-exists";
export type EmailPurpose =
  | AccountEmailPurpose
  | "billing-receipt"
  | "billing-payment-failed"
  | "billing-trial-ending"
  | "billing-plan-ended";

/** The emails the server sends, in both languages. Links point at the app's screens. */
export const emails: Record<
  AccountEmailPurpose,
  (locale: Locale, brand: string, link: string) => Email
> = {
  "confirm-email": (locale, brand, link) =>
    locale === "es"
      ? {
          subject: `Confirma tu email en ${brand}`,
          text: `Hola:\n\nPara activar tu cuenta de ${brand}, confirma tu dirección de email abriendo este enlace:\n\n${link}\n\nEl enlace caduca en 48 horas. Si no has creado una cuenta, ignora este mensaje.\n`,
        }
      : {
          subject: `Confirm your email for ${brand}`,
          text: `Hello,\n\nTo activate your ${brand} account, confirm your email address by opening this link:\n\n${link}\n\nThe link expires in 48 hours. If you did not create an account, ignore this message.\n`,
        },
  "recover-password": (locale, brand, link) =>
    locale === "es"
      ? {
          subject: `Elige una nueva contraseña en ${brand}`,
          text: `Hola:\n\nHemos recibido una petición para cambiar la contraseña de tu cuenta de ${brand}. Elige una nueva aquí:\n\n${link}\n\nEl enlace caduca en 1 hora. Si no lo has pedido tú, ignora este mensaje: tu contraseña no cambia.\n`,
        }
      : {
          subject: `Choose a new password for ${brand}`,
          text: `Hello,\n\nWe received a request to change the password of your ${brand} account. Choose a new one here:\n\n${link}\n\nThe link expires in 1 hour. If you did not ask for it, ignore this message: your password does not change.\n`,
        },
  "account-exists": (locale, brand, link) =>
    locale === "es"
      ? {
          subject: `Ya tienes una cuenta en ${brand}`,
          text: `Hola:\n\nAlguien ha intentado crear una cuenta de ${brand} con este email, pero ya tienes una. Si has olvidado tu contraseña, elige una nueva aquí:\n\n${link}\n`,
        }
      : {
          subject: `You already have a ${brand} account`,
          text: `Hello,\n\nSomeone tried to create a ${brand} account with this email, but you already have one. If you forgot your password, choose a new one here:\n\n${link}\n`,
        },
};
