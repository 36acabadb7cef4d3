import { Trans, useLingui } from "@lingui/react/macro";
import { fromPromise } from "xstate";
import { useMemo } from "react";
import { dataLoadMachine } from "../../../machines/data-load.machine.ts";
import type { HealthResponse } from "../../contract/health.ts";
import { endpoints } from "../../contract/endpoints.ts";
import type { ScreenProps } from "../../app/route-screen.tsx";
import { useServices } from "../../app/services.tsx";
import { useAppMachine } from "../../app/use-app-machine.ts";
import { PageHeading } from "../../ui/page-heading.tsx";
import { Spinner } from "../../ui/spinner.tsx";
import { formatDateTime, formatNumber } from "../../ui/format.ts";
import { ApiCallError } from "../../client/http.ts";

type Status = "up" | "down" | "checking";

function StatusRow({ name, status, detail }: { name: string; status: Status; detail: string }) {
  const { t } = useLingui();
  const label = status === "up" ? t`Working` : status === "down" ? t`Not working` : t`Checking…`;
  return (
    <tr>
      <th scope="row">{name}</th>
      <td>
        <span className={`status-badge status-${status}`}>{label}</span>
      </td>
      <td>{detail}</td>
    </tr>
  );
}

/** The status of the app, the API and the database (`/_health`). */
export default function HealthScreen({ locale }: ScreenProps) {
  const { http, brand, config } = useServices();
  const { t } = useLingui();
  const machine = useMemo(
    () =>
      dataLoadMachine.provide({
        actors: {
          load: fromPromise(async () => {
            const started = performance.now();
            try {
              const health = await http.call(endpoints.health);
              return { health, apiMs: performance.now() - started };
            } catch (error) {
              // A 503 still carries the report: the API is up, the database is not.
              if (error instanceof ApiCallError && error.failure.kind === "http") return { health: null, apiMs: null };
              throw error;
            }
          }),
        },
      }),
    [http],
  );
  const [snapshot, send] = useAppMachine(machine);
  const data = snapshot.context.data as { health: HealthResponse | null; apiMs: number | null } | null;
  const health = data?.health ?? null;
  const loading = snapshot.matches("loading");
  const apiStatus: Status = loading ? "checking" : snapshot.matches("failed") ? "down" : "up";
  const dbStatus: Status = loading ? "checking" : health?.database.status === "up" ? "up" : "down";
  const driverName = (driver: "pglite" | "postgres") => (driver === "pglite" ? t`embedded (PGlite)` : t`PostgreSQL server`);
  const ms = (x: number | null | undefined) => (x == null ? "—" : `${formatNumber(x, locale, { maximumFractionDigits: 1 })} ms`);

  return (
    <div>
      <PageHeading title={t`System status`} summary={t`The status of the app, the API and the database.`} />
      {loading && !data ? <Spinner label={t`Checking…`} /> : null}
      <table className="status-table">
        <caption className="visually-hidden">
          <Trans>Component status</Trans>
        </caption>
        <thead>
          <tr>
            <th scope="col">
              <Trans>Component</Trans>
            </th>
            <th scope="col">
              <Trans>Status</Trans>
            </th>
            <th scope="col">
              <Trans>Details</Trans>
            </th>
          </tr>
        </thead>
        <tbody>
          <StatusRow name={t`App`} status="up" detail={t`${brand.name} (${config.edition}), build ${__BUILD_ID__}`} />
          <StatusRow name={t`API`} status={apiStatus} detail={data ? t`Answered in ${ms(data.apiMs)}` : "—"} />
          <StatusRow
            name={t`Database`}
            status={dbStatus}
            detail={
              health
                ? t`${driverName(health.database.driver)}, ${ms(health.database.latencyMs)}, ${health.database.migrations ?? 0} migrations`
                : "—"
            }
          />
        </tbody>
      </table>
      {health ? (
        <p className="muted">
          <Trans>
            Version {health.version}, checked {formatDateTime(health.time, locale)}.
          </Trans>
        </p>
      ) : null}
      <button type="button" className="button ghost" onClick={() => send({ type: snapshot.matches("failed") ? "data.retry" : "data.refresh" })}>
        <Trans>Check again</Trans>
      </button>
    </div>
  );
}
