import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useId, useRef, useState, type ReactNode } from "react";
import { Link, NavLink, useLocation } from "react-router-dom";
import type { Locale } from "../../contract/common.ts";
import { sectionParamOf, writeSectionParams } from "../../contract/education.ts";
import { Logo } from "../../ui/logo.tsx";
import { PlanBadge } from "../../ui/plan-badge.tsx";
import { useAccessFacts } from "../access-facts.tsx";
import { routeLinkAccess, type LinkAccess } from "../link-access.ts";
import type { RouteId } from "../route-table.ts";
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

interface HeaderLink {
  readonly id: RouteId;
  readonly label: string;
}

/** A header link, with the lock of the plan that unlocks it when the person's plan does not. */
function HeaderNavLink({
  link,
  locale,
  access,
  onNavigate,
}: {
  link: HeaderLink;
  locale: Locale;
  access: LinkAccess;
  onNavigate: () => void;
}) {
  return (
    <NavLink
      to={pathFor(link.id, locale)}
      onClick={onNavigate}
      className={({ isActive }) =>
        [isActive ? "active" : "", access.kind === "locked" ? "locked" : ""].join(" ").trim() ||
        undefined
      }
    >
      {link.label}
      {access.kind === "locked" ? <PlanBadge tier={access.tier} /> : null}
    </NavLink>
  );
}

/**
 * The education section's entry (hollypedia in ht, program in tt): it opens over the current page
 * on the edition's default tab, as every link into the section does (PRODUCT.md, "Education").
 */
export function EducationLink({
  className,
  onNavigate,
  children,
}: {
  className?: string;
  onNavigate?: () => void;
  /** The link's text (the section's name when not given). */
  children?: ReactNode;
}) {
  const { config } = useServices();
  const { t } = useLingui();
  const location = useLocation();
  const edition = config.edition;
  const search = writeSectionParams(location.search, edition, {
    tab: null,
    level: "user",
    section: null,
    term: null,
  });
  return (
    <Link
      to={{ pathname: location.pathname, search }}
      className={className}
      data-section={sectionParamOf(edition)}
      onClick={onNavigate}
    >
      {children ?? (edition === "tt" ? t`Programme` : t`Hollypedia`)}
    </Link>
  );
}

/**
 * A small menu of less used links ("More") on wide screens; in the phone menu its links are listed
 * with the others. Escape, a click elsewhere or leaving it with the keyboard closes it.
 */
function NavGroup({ label, children }: { label: string; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const item = useRef<HTMLLIElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const listId = useId();
  useEffect(() => {
    if (!open) return;
    const onPointerDown = (e: PointerEvent) => {
      if (!item.current?.contains(e.target as Node)) setOpen(false);
    };
    const onKeyDown = (e: KeyboardEvent) => {
      if (e.key !== "Escape") return;
      setOpen(false);
      toggle.current?.focus();
    };
    document.addEventListener("pointerdown", onPointerDown);
    document.addEventListener("keydown", onKeyDown);
    return () => {
      document.removeEventListener("pointerdown", onPointerDown);
      document.removeEventListener("keydown", onKeyDown);
    };
  }, [open]);
  return (
    <li
      ref={item}
      className={open ? "nav-group open" : "nav-group"}
      onBlur={(e) => {
        if (!item.current?.contains(e.relatedTarget as Node | null)) setOpen(false);
      }}
    >
      <button
        ref={toggle}
        type="button"
        className="nav-group-toggle"
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen((v) => !v)}
      >
        {label}
      </button>
      <ul id={listId} className="nav-group-list" onClick={() => setOpen(false)}>
        {children}
      </ul>
    </li>
  );
}

export function SiteHeader({ locale }: { locale: Locale }) {
  const { brand } = useServices();
  const brandName = brand.name;
  const facts = useAccessFacts();
  const { t } = useLingui();
  const [open, setOpen] = useState(false);
  const close = () => setOpen(false);
  const shown = (links: readonly HeaderLink[]) =>
    links
      .map((link) => ({ link, access: routeLinkAccess(link.id, facts) }))
      .filter(({ access }) => access.kind !== "hidden");
  const main = shown([
    { id: "markets", label: t`Markets` },
    { id: "create-q1", label: t`New portfolio` },
    { id: "account-portfolios", label: t`My portfolios` },
  ]);
  const more = shown([
    { id: "banana-challenge", label: t`Banana challenge` },
    { id: "investment-simulator", label: t`Investment simulator` },
  ]);
  const educationFirst = brand.edition === "tt";
  const education = (
    <li className="nav-education-item">
      <EducationLink className="nav-education" onNavigate={close} />
    </li>
  );
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
          <ul className="nav-links">
            {educationFirst ? education : null}
            {main.map(({ link, access }) => (
              <li key={link.id}>
                <HeaderNavLink link={link} locale={locale} access={access} onNavigate={close} />
              </li>
            ))}
            {educationFirst ? null : education}
            {more.length > 0 ? (
              <NavGroup label={t`More`}>
                {more.map(({ link, access }) => (
                  <li key={link.id}>
                    <HeaderNavLink link={link} locale={locale} access={access} onNavigate={close} />
                  </li>
                ))}
              </NavGroup>
            ) : null}
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
          <EducationLink />
        </li>
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
