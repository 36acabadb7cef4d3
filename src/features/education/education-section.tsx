import { msg } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import { Link, useLocation } from "react-router-dom";
import {
  educationMachine,
  shownTab,
  type EducationAccess,
} from "../../../machines/education.machine.ts";
import { pathFor } from "../../app/paths.ts";
import { useServices } from "../../app/services.tsx";
import { useSession } from "../../app/session/use-session.ts";
import { useAppMachine } from "../../app/use-app-machine.ts";
import type { Locale } from "../../contract/common.ts";
import {
  educationTabs,
  readSectionParams,
  tabPermission,
  writeSectionParams,
  type ContentLevel,
  type EducationTab,
} from "../../contract/education.ts";
import { PlanLock } from "../../app/plan-lock.tsx";
import { CaseStudiesTab } from "./case-studies-tab.tsx";
import { CoursesTab } from "./courses-tab.tsx";
import { DictionaryTab } from "./dictionary-tab.tsx";
import { VideosTab } from "./videos-tab.tsx";
import "./education.css";

export const tabNames = {
  dictionary: msg`Dictionary`,
  videotutorials: msg`Video tutorials`,
  casestudies: msg`Case studies`,
  education: msg`Courses`,
} as const satisfies Record<EducationTab, unknown>;

/** The plan's hollypedia permissions for the current product (none for a guest). */
function useEducationAccess(): EducationAccess {
  const { product } = useServices();
  const [facts] = useSession((s) => ({
    signedIn: s.matches("signedIn"),
    client: s.context.client,
  }));
  const p = facts.client?.permissions[product()].hollypedia;
  // The programme of a TT account (a student) includes them, as the server decides.
  const student = facts.client?.kind === "TT";
  return {
    signedIn: facts.signedIn && facts.client !== null,
    videoTutorials: Boolean(facts.signedIn && (student || p?.videoTutorials)),
    courses: Boolean(facts.signedIn && (student || p?.courses)),
  };
}

/**
 * The education section (hollypedia in ht, program in tt) as a modal dialog over the page: its
 * tabs, the level of its texts and the item open all live in the URL (the machine writes them),
 * so it can be linked to, and back and forward move through it. Escape or Close removes its
 * parameters; focus goes back to what opened it.
 */
export default function EducationSection({ locale }: { locale: Locale }) {
  const { t, i18n } = useLingui();
  const { config, product, navigation } = useServices();
  const edition = config.edition;
  const location = useLocation();
  const access = useEducationAccess();
  // The section's parameters go to the URL of the page it is over (the app's navigation).
  const [machine] = useState(() =>
    educationMachine.provide({
      actions: {
        pushParams: (_, { params }) =>
          navigation.pushSearch((search) => writeSectionParams(search, edition, params)),
      },
    }),
  );
  const [snapshot, send] = useAppMachine(machine, {
    input: { edition, access, params: readSectionParams(location.search, edition) },
  });
  useEffect(() => {
    send({ type: "url.changed", params: readSectionParams(location.search, edition) });
  }, [send, location.search, edition]);
  useEffect(() => {
    send({ type: "access.changed", access });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the three facts are the access
  }, [send, access.signedIn, access.videoTutorials, access.courses]);

  const dialog = useRef<HTMLDialogElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const headingId = useId();
  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const d = dialog.current;
    if (d && !d.open) d.showModal?.();
    heading.current?.focus();
    return () => {
      if (opener?.isConnected) opener.focus();
    };
  }, []);

  const params = snapshot.context.params;
  const tab = shownTab(snapshot.context);
  const level: ContentLevel = params?.level ?? "user";
  const title = edition === "tt" ? t`Programme` : t`Hollypedia`;
  const tabIds = Object.fromEntries(educationTabs.map((x) => [x, `${headingId}-tab-${x}`]));
  const panelId = `${headingId}-panel`;

  const onTabKey = (e: KeyboardEvent<HTMLButtonElement>) => {
    const at = educationTabs.indexOf(tab);
    const next =
      e.key === "ArrowRight"
        ? educationTabs[(at + 1) % educationTabs.length]
        : e.key === "ArrowLeft"
          ? educationTabs[(at + educationTabs.length - 1) % educationTabs.length]
          : e.key === "Home"
            ? educationTabs[0]
            : e.key === "End"
              ? educationTabs[educationTabs.length - 1]
              : null;
    if (!next) return;
    e.preventDefault();
    send({ type: "tab.select", tab: next });
    requestAnimationFrame(() => document.getElementById(tabIds[next]!)?.focus());
  };

  const permission = tabPermission[tab];
  return (
    <dialog
      ref={dialog}
      className="education-dialog"
      aria-labelledby={headingId}
      onCancel={(e) => {
        e.preventDefault();
        send({ type: "section.close" });
      }}
    >
      <div className="education-inner">
        <header className="education-header">
          <h2 id={headingId} ref={heading} tabIndex={-1}>
            {title}
          </h2>
          <button
            type="button"
            className="button ghost"
            onClick={() => send({ type: "section.close" })}
          >
            <Trans>Close</Trans>
          </button>
        </header>
        <div className="education-controls">
          <div role="tablist" aria-label={title} className="tabs education-tabs">
            {educationTabs.map((x) => (
              <button
                key={x}
                id={tabIds[x]}
                type="button"
                role="tab"
                aria-selected={x === tab}
                aria-controls={panelId}
                tabIndex={x === tab ? 0 : -1}
                className={x === tab ? "tab active" : "tab"}
                onClick={() => send({ type: "tab.select", tab: x })}
                onKeyDown={onTabKey}
              >
                {i18n._(tabNames[x])}
                {tabPermission[x] && !access[tabPermission[x]] ? (
                  <span className="visually-hidden">
                    {" "}
                    <Trans>(not in your plan)</Trans>
                  </span>
                ) : null}
              </button>
            ))}
          </div>
          <fieldset className="education-level">
            <legend>
              <Trans>Level</Trans>
            </legend>
            {(["user", "pro"] as const).map((l) => (
              <label key={l}>
                <input
                  type="radio"
                  name={`${headingId}-level`}
                  value={l}
                  checked={level === l}
                  onChange={() => send({ type: "level.select", level: l })}
                />{" "}
                {l === "user" ? <Trans>Plain words</Trans> : <Trans>Professional</Trans>}
              </label>
            ))}
          </fieldset>
        </div>
        <section
          id={panelId}
          role="tabpanel"
          aria-labelledby={tabIds[tab]}
          className="education-panel"
        >
          {snapshot.matches({ open: "locked" }) && permission ? (
            <div className="notice education-locked">
              <p>
                {tab === "videotutorials" ? (
                  <Trans>Video tutorials are part of a paid plan.</Trans>
                ) : (
                  <Trans>Courses are part of a paid plan.</Trans>
                )}{" "}
                <PlanLock
                  product={product()}
                  permission={`hollypedia.${permission}`}
                  locale={locale}
                />
              </p>
              {!access.signedIn ? (
                <p>
                  <Link to={pathFor("auth-SignIn", locale)}>
                    <Trans>Sign in</Trans>
                  </Link>
                </p>
              ) : null}
            </div>
          ) : snapshot.matches({ open: "dictionary" }) ? (
            <DictionaryTab
              locale={locale}
              level={level}
              term={params?.term ?? null}
              onOpenTerm={(term) => send({ type: "term.open", term })}
              onBack={() => send({ type: "item.close" })}
            />
          ) : snapshot.matches({ open: "casestudies" }) ? (
            <CaseStudiesTab
              locale={locale}
              level={level}
              section={params?.section ?? null}
              onOpen={(section) => send({ type: "item.open", section })}
              onBack={() => send({ type: "item.close" })}
            />
          ) : snapshot.matches({ open: "videotutorials" }) ? (
            <VideosTab
              locale={locale}
              section={params?.section ?? null}
              onOpen={(section) => send({ type: "item.open", section })}
              onBack={() => send({ type: "item.close" })}
            />
          ) : snapshot.matches({ open: "education" }) ? (
            <CoursesTab
              locale={locale}
              section={params?.section ?? null}
              onOpen={(section) => send({ type: "item.open", section })}
              onBack={() => send({ type: "item.close" })}
            />
          ) : null}
        </section>
      </div>
    </dialog>
  );
}
