import { Plural, Trans, useLingui } from "@lingui/react/macro";
import { fromPromise } from "xstate";
import { useMemo } from "react";
import { dataLoadMachine } from "../../../machines/data-load.machine.ts";
import type { HealthResponse } from "../../contract/health.ts";
import { endpoints } from "../../contract/endpoints.ts";
import type { ScreenProps } from "../../app/route-screen.tsx";
import { useServices } from "../../app/services.tsx";
import { useAppMachine } from "../../app/use-app-machine.ts";
import { ApiCallError, type HttpClient } from "../../client/http.ts";
import { PageHeading } from "../../ui/page-heading.tsx";
import { Spinner } from "../../ui/spinner.tsx";
import { formatDateTime, formatNumber } from "../../ui/format.ts";

type Status = "up" | "down" | "checking";

interface HealthCheck {
  /** null when the API answered but could not report (503: database down). */
  readonly health: HealthResponse | null;
  readonly apiMs: number;
}

const checkHealth = (http: HttpClient) =>
  fromPromise(async (): Promise<unknown> => {
    const started = performance.now();
    try {
      const health = await http.call(endpoints.health);
      return { health, apiMs: performance.now() - started } satisfies HealthCheck;
    } catch (error) {
      if (error instanceof ApiCallError && error.failure.kind === "http") {
        return { health: null, apiMs: performance.now() - started } satisfies HealthCheck;
      }
      throw error;
    }
  });

function StatusRow({
  name,
  status,
  children,
}: {
  name: string;
  status: Status;
  children: React.ReactNode;
}) {
  const { t } = useLingui();
  const label = status === "up" ? t`Working` : status === "down" ? t`Not working` : t`Checking…`;
  return (
    <tr>
      <th scope="row">{name}</th>
      <td>
        <span className={`status-badge status-${status}`}>{label}</span>
      </td>
      <td>{children}</td>
    </tr>
  );
}

/** The status of the app, the API and the database (`/_health`). */
export default function HealthScreen({ locale }: ScreenProps) {
  const { http, brand, config } = useServices();
  const { t } = useLingui();
  const machine = useMemo(
    () => dataLoadMachine.provide({ actors: { load: checkHealth(http) } }),
    [http],
  );
  const [snapshot, send] = useAppMachine(machine);
  const check = snapshot.context.data as HealthCheck | null;
  const health = check?.health ?? null;
  const loading = snapshot.matches("loading");
  const apiStatus: Status = loading ? "checking" : snapshot.matches("failed") ? "down" : "up";
  const dbStatus: Status = loading ? "checking" : health?.database.status === "up" ? "up" : "down";
  const ms = (x: number | null | undefined) =>
    x == null ? "—" : `${formatNumber(x, locale, { maximumFractionDigits: 1 })} ms`;

  const brandName = brand.name;
  const edition = config.edition;
  const build = __BUILD_ID__;
  const apiTime = ms(check?.apiMs);
  const driver =
    health?.database.driver === "postgres" ? t`PostgreSQL server` : t`embedded (PGlite)`;
  const dbTime = ms(health?.database.latencyMs);
  const migrations = health?.database.migrations ?? 0;
  const version = health?.version ?? "";
  const checkedAt = health ? formatDateTime(health.time, locale) : "";

  return (
    <div>
      <PageHeading
        title={t`System status`}
        summary={t`The status of the app, the API and the database.`}
      />
      {loading && !check ? <Spinner label={t`Checking…`} /> : null}
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
          <StatusRow name={t`App`} status="up">
            <Trans>
              {brandName} ({edition}), build {build}
            </Trans>
          </StatusRow>
          <StatusRow name={t`API`} status={apiStatus}>
            {check ? <Trans>Answered in {apiTime}</Trans> : "—"}
          </StatusRow>
          <StatusRow name={t`Database`} status={dbStatus}>
            {health ? (
              <>
                {driver}, {dbTime},{" "}
                <Plural value={migrations} one="# migration" other="# migrations" />
              </>
            ) : (
              "—"
            )}
          </StatusRow>
        </tbody>
      </table>
      {health ? (
        <p className="muted">
          <Trans>
            Version {version}, checked {checkedAt}.
          </Trans>
        </p>
      ) : null}
      <button
        type="button"
        className="button ghost"
        onClick={() => send({ type: snapshot.matches("failed") ? "data.retry" : "data.refresh" })}
      >
        <Trans>Check again</Trans>
      </button>
    </div>
  );
}
