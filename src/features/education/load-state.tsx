import { Trans, useLingui } from "@lingui/react/macro";
import type { DataState } from "../../app/use-data.ts";
import { msgCodeText } from "../../ui/msg-code-text.ts";
import { Spinner } from "../../ui/spinner.tsx";

/** Loading and failure of a tab's data, with a retry. */
export function LoadState<T>({ data, label }: { data: DataState<T>; label: string }) {
  const { i18n } = useLingui();
  if (data.loading) return <Spinner label={label} />;
  if (data.error)
    return (
      <div className="form-message error" role="alert">
        <p>{i18n._(msgCodeText[data.error])}</p>
        <button type="button" className="button" onClick={data.retry}>
          <Trans>Try again</Trans>
        </button>
      </div>
    );
  return null;
}
