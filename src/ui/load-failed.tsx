import { Trans, useLingui } from "@lingui/react/macro";
import type { MsgCode } from "../contract/msg-codes.ts";
import { msgCodeText } from "./msg-code-text.ts";

/** Loading something failed: the reason, in the user's language, and a way to try again. */
export function LoadFailed({ error, onRetry }: { error: MsgCode | null; onRetry: () => void }) {
  const { i18n } = useLingui();
  return (
    <p role="alert" className="form-message error">
      {error ? i18n._(msgCodeText[error]) : null}{" "}
      <button type="button" className="link-button" onClick={onRetry}>
        <Trans>Try again</Trans>
      </button>
    </p>
  );
}
