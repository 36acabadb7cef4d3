import type { ReactNode } from "react";
import { Link, useLocation } from "react-router-dom";
import { useServices } from "./services.tsx";
import { readSectionParams, termLinkPattern, writeSectionParams } from "../contract/education.ts";

/**
 * A link to a dictionary entry: opens the education section over the current page at the term
 * (PRODUCT.md: every figure and technical word links to its entry). `term` is the entry's id.
 */
export function TermLink({
  term,
  children,
  className,
}: {
  term: string;
  children: ReactNode;
  className?: string;
}) {
  const location = useLocation();
  const { config } = useServices();
  const edition = config.edition;
  const level = readSectionParams(location.search, edition)?.level ?? "user";
  const search = writeSectionParams(location.search, edition, {
    tab: "dictionary",
    level,
    section: null,
    term,
  });
  return (
    <Link
      to={{ pathname: location.pathname, search }}
      className={className ? `term-link ${className}` : "term-link"}
      data-term={term}
    >
      {children}
    </Link>
  );
}

/** A content text with its `[[id]]` / `[[id|words]]` links to dictionary entries as TermLinks. */
export function RichText({
  text,
  termName,
}: {
  text: string;
  /** The entry's name for `[[id]]` links without words. */
  termName?: (id: string) => string | undefined;
}) {
  const parts: ReactNode[] = [];
  let at = 0;
  for (const m of text.matchAll(new RegExp(termLinkPattern.source, "g"))) {
    const index = m.index ?? 0;
    if (index > at) parts.push(text.slice(at, index));
    const id = m[1]!;
    parts.push(
      <TermLink key={`${index}-${id}`} term={id}>
        {m[2] ?? termName?.(id) ?? id.replace(/-/g, " ")}
      </TermLink>,
    );
    at = index + m[0].length;
  }
  if (at < text.length) parts.push(text.slice(at));
  return <>{parts}</>;
}

/**
 * The dictionary entries of a block's words, as one line of links ("In the dictionary: VaR ·
 * CVaR"): each opens the education section at its term. `terms` are [entry id, words] pairs.
 */
export function TermLinks({
  terms,
  label,
}: {
  terms: readonly (readonly [string, string])[];
  /** The line's lead-in, in the user's language ("In the dictionary:"). */
  label: string;
}) {
  return (
    <p className="figure-term term-links">
      {label}{" "}
      {terms.map(([id, words], i) => (
        <span key={id}>
          {i > 0 ? " · " : null}
          <TermLink term={id}>{words}</TermLink>
        </span>
      ))}
    </p>
  );
}
