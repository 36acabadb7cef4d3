import { useLingui } from "@lingui/react/macro";
import type { ReactNode } from "react";
import { NavLink } from "react-router-dom";
import type { Locale } from "../../contract/common.ts";
import { useDocumentTitle } from "../document-title.ts";
import { pathFor } from "../paths.ts";
import { SiteFooter, SiteHeader, SkipLink } from "./default-layout.tsx";

/** The default layout with the my-account navigation beside the page. */
export function ClientAccountLayout({
  locale,
  title,
  children,
}: {
  locale: Locale;
  title: string;
  children: ReactNode;
}) {
  const { t } = useLingui();
  useDocumentTitle(title);
  const links = [
    { to: pathFor("account-profile", locale), label: t`Profile` },
    { to: pathFor("account-portfolios", locale), label: t`My portfolios` },
    { to: pathFor("account-banana-challenge", locale), label: t`My banana challenge` },
    { to: pathFor("account-billing", locale), label: t`Billing and subscription` },
  ];
  return (
    <div className="layout-default">
      <SkipLink />
      <SiteHeader locale={locale} />
      <div className="account-grid">
        <nav className="account-nav" aria-label={t`My account`}>
          <ul>
            {links.map((l) => (
              <li key={l.to}>
                <NavLink to={l.to}>{l.label}</NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <main id="main" className="page" tabIndex={-1}>
          {children}
        </main>
      </div>
      <SiteFooter locale={locale} />
    </div>
  );
}
