import type { ReactNode } from "react";
import { Link, useLocation } from "react-router-dom";
import { useServices } from "../app/services.tsx";
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
