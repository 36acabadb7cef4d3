import type { ReactNode } from "react";

export function PageHeading({ title, summary }: { title: ReactNode; summary?: ReactNode }) {
  return (
    <header className="page-heading">
      <h1>{title}</h1>
      {summary ? <p className="lead">{summary}</p> : null}
    </header>
  );
}
