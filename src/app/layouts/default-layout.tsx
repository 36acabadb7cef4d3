import { Trans, useLingui } from "@lingui/react/macro";
import { useState, type ReactNode } from "react";
import { Link, NavLink, useLocation } from "react-router-dom";
import type { Locale } from "../../contract/common.ts";
import { Logo } from "../../ui/logo.tsx";
import { showCookiePreferences } from "../consent.ts";
import { pathFor, switchLocalePath } from "../paths.ts";
import { useServices } from "../services.tsx";
import { useDocumentTitle } from "../document-title.ts";
import { UserMenu, WelcomeBanner } from "../session/user-menu.tsx";

const otherLocale: Record<Locale, Locale> = { en: "es", es: "en" };

/** Each language is offered in its own name, as language pickers do. */
// eslint-disable-next-line lingui/no-unlocalized-strings -- autonyms are not translated
const languageNames: Record<Locale, string> = { en: "English", es: "Español" };

/** The language switch: the same screen in the other language. */
function LanguageSwitch({ locale }: { locale: Locale }) {
  const location = useLocation();
  const to = otherLocale[locale];
  const href = switchLocalePath(location.pathname, location.search, location.hash, to);
  return (
    <Link className="language-switch" to={href} hrefLang={to} lang={to}>
      {languageNames[to]}
    </Link>
  );
}

export function SiteHeader({ locale }: { locale: Locale }) {
  const { brand } = useServices();
  const brandName = brand.name;
  const { t } = useLingui();
  const [open, setOpen] = useState(false);
  const links = [
    { to: pathFor("markets", locale), label: t`Markets` },
    { to: pathFor("create-q1", locale), label: t`Create a portfolio` },
    { to: pathFor("account-portfolios", locale), label: t`My portfolios` },
    { to: pathFor("banana-challenge", locale), label: t`Banana challenge` },
    { to: pathFor("investment-simulator", locale), label: t`Investment simulator` },
  ];
  return (
    <header className="site-header">
      <div className="site-header-inner">
        <Link
          to={pathFor("index", locale)}
          className="brand-link"
          aria-label={t`${brandName} home`}
        >
          <Logo brand={brand} />
        </Link>
        <button
          type="button"
          className="menu-toggle"
          aria-expanded={open}
          aria-controls="primary-nav"
          onClick={() => setOpen((v) => !v)}
        >
          <Trans>Menu</Trans>
        </button>
        <nav
          id="primary-nav"
          className={open ? "primary-nav open" : "primary-nav"}
          aria-label={t`Main`}
        >
          <ul>
            {links.map((l) => (
              <li key={l.to}>
                <NavLink to={l.to} onClick={() => setOpen(false)}>
                  {l.label}
                </NavLink>
              </li>
            ))}
          </ul>
          <div className="header-actions">
            <LanguageSwitch locale={locale} />
            <UserMenu locale={locale} />
          </div>
        </nav>
      </div>
    </header>
  );
}

export function SiteFooter({ locale }: { locale: Locale }) {
  const { brand } = useServices();
  const year = new Date().getFullYear();
  return (
    <footer className="site-footer">
      <p>
        © {year} {brand.name}
      </p>
      <ul>
        <li>
          <button type="button" className="link-button" onClick={showCookiePreferences}>
            <Trans>Cookie settings</Trans>
          </button>
        </li>
        <li>
          <Link to={pathFor("health", locale)}>
            <Trans>System status</Trans>
          </Link>
        </li>
      </ul>
    </footer>
  );
}

export function SkipLink() {
  return (
    <a className="skip-link" href="#main">
      <Trans>Skip to content</Trans>
    </a>
  );
}

export function DefaultLayout({
  locale,
  title,
  children,
}: {
  locale: Locale;
  title: string;
  children: ReactNode;
}) {
  useDocumentTitle(title);
  return (
    <div className="layout-default">
      <SkipLink />
      <SiteHeader locale={locale} />
      <main id="main" className="page" tabIndex={-1}>
        <WelcomeBanner />
        {children}
      </main>
      <SiteFooter locale={locale} />
    </div>
  );
}
