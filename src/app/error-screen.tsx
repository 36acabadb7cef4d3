import { Trans, useLingui } from "@lingui/react/macro";
import { useNavigate } from "react-router-dom";
import { EmptyCenterLayout } from "./layouts/empty-center-layout.tsx";

export interface ErrorScreenProps {
  readonly statusCode: number;
  readonly message: string;
}

/** The error screen of the specification: "Error {statusCode}", the message, and a way back. */
export function ErrorScreen({ statusCode, message }: ErrorScreenProps) {
  const navigate = useNavigate();
  const { t } = useLingui();
  const goBack = () => {
    if (window.history.length > 1) navigate(-1);
    else navigate("/");
  };
  return (
    <EmptyCenterLayout title={t`Error ${statusCode}`}>
      <section className="error-screen" aria-labelledby="error-title">
        <h1 id="error-title">
          <Trans>Error {statusCode}</Trans>
        </h1>
        <p className="lead">{message}</p>
        <button type="button" className="button primary" onClick={goBack} autoFocus>
          <Trans>Go back</Trans>
        </button>
      </section>
    </EmptyCenterLayout>
  );
}

export function NotFoundScreen() {
  const { t } = useLingui();
  return <ErrorScreen statusCode={404} message={t`Page Not Found`} />;
}
