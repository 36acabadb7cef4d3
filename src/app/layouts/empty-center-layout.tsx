import type { ReactNode } from "react";
import { useDocumentTitle } from "../document-title.ts";
import { useServices } from "../services.tsx";
import { Logo } from "../../ui/logo.tsx";

/** A centred card without navigation: error screens and the accept-policy page. */
export function EmptyCenterLayout({ title, children }: { title: string; children: ReactNode }) {
  const { brand } = useServices();
  useDocumentTitle(title);
  return (
    <div className="layout-empty-center">
      <main id="main" className="center-card">
        <div className="center-logo">
          <Logo brand={brand} />
        </div>
        {children}
      </main>
    </div>
  );
}
