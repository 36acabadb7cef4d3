import type { DataState } from "../../app/use-data.ts";
import { Spinner } from "../../ui/spinner.tsx";
import { LoadFailed } from "../../ui/load-failed.tsx";

/** Loading and failure of a tab's data, with a retry. */
export function LoadState<T>({ data, label }: { data: DataState<T>; label: string }) {
  if (data.loading) return <Spinner label={label} />;
  if (data.error) return <LoadFailed error={data.error} onRetry={data.retry} />;
  return null;
}
