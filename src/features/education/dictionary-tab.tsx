import { Trans, useLingui } from "@lingui/react/macro";
import { useDeferredValue, useId, useMemo, useState } from "react";
import { useServices } from "../../app/services.tsx";
import { useData } from "../../app/use-data.ts";
import type { Locale } from "../../contract/common.ts";
import { endpoints } from "../../contract/endpoints.ts";
import type { ContentLevel, DictionaryEntry } from "../../contract/education.ts";
import { LoadState } from "./load-state.tsx";
import { entryOf, searchEntries } from "./search.ts";
import { RichText } from "../../app/term-link.tsx";

/** Shown at once; more with "Show more". */
const PAGE = 40;

export function DictionaryTab({
  locale,
  level,
  term,
  onOpenTerm,
  onBack,
}: {
  locale: Locale;
  level: ContentLevel;
  term: string | null;
  onOpenTerm: (term: string) => void;
  onBack: () => void;
}) {
  const { t } = useLingui();
  const { http } = useServices();
  const data = useData(`dictionary:${locale}`, () => http.call(endpoints.dictionaryTerms));
  const entries = useMemo(() => data.data?.entries ?? [], [data.data]);
  const byId = useMemo(() => new Map(entries.map((e) => [e.id, e])), [entries]);
  if (!data.data) return <LoadState data={data} label={t`Loading the dictionary`} />;
  const entry = entryOf(entries, term);
  if (term)
    return entry ? (
      <EntryView entry={entry} level={level} byId={byId} onOpenTerm={onOpenTerm} onBack={onBack} />
    ) : (
      <div>
        <p role="alert">
          <Trans>There is no entry "{term}" in the dictionary.</Trans>
        </p>
        <button type="button" className="button" onClick={onBack}>
          <Trans>All entries</Trans>
        </button>
      </div>
    );
  return <EntryList entries={entries} onOpenTerm={onOpenTerm} />;
}

function EntryList({
  entries,
  onOpenTerm,
}: {
  entries: readonly DictionaryEntry[];
  onOpenTerm: (term: string) => void;
}) {
  const { t } = useLingui();
  const [query, setQuery] = useState("");
  const [shown, setShown] = useState(PAGE);
  const deferred = useDeferredValue(query);
  const results = useMemo(() => searchEntries(entries, deferred), [entries, deferred]);
  const searchId = useId();
  const count = results.length;
  return (
    <div className="dictionary">
      <div className="field">
        <label htmlFor={searchId}>
          <Trans>Search the dictionary</Trans>
        </label>
        <input
          id={searchId}
          type="search"
          value={query}
          autoComplete="off"
          placeholder={t`e.g. volatility`}
          onChange={(e) => {
            setQuery(e.target.value);
            setShown(PAGE);
          }}
        />
      </div>
      <p className="muted" role="status" aria-live="polite">
        {deferred.trim() ? <Trans>{count} entries found</Trans> : <Trans>{count} entries</Trans>}
      </p>
      <ul className="term-list">
        {results.slice(0, shown).map((e) => (
          <li key={e.id}>
            <button type="button" className="link-button" onClick={() => onOpenTerm(e.slug)}>
              {e.term}
            </button>
          </li>
        ))}
      </ul>
      {count > shown ? (
        <button type="button" className="button" onClick={() => setShown(shown + PAGE * 2)}>
          <Trans>Show more</Trans>
        </button>
      ) : null}
    </div>
  );
}

function EntryView({
  entry,
  level,
  byId,
  onOpenTerm,
  onBack,
}: {
  entry: DictionaryEntry;
  level: ContentLevel;
  byId: ReadonlyMap<string, DictionaryEntry>;
  onOpenTerm: (term: string) => void;
  onBack: () => void;
}) {
  const termName = (id: string) => byId.get(id)?.term;
  return (
    <article className="entry" aria-labelledby={`entry-${entry.id}`}>
      <button type="button" className="link-button" onClick={onBack}>
        <Trans>← All entries</Trans>
      </button>
      <h3 id={`entry-${entry.id}`}>{entry.term}</h3>
      {entry.aliases.length ? (
        <p className="muted">
          <Trans>Also called:</Trans> {entry.aliases.join(", ")}
        </p>
      ) : null}
      {level === "user" ? (
        <>
          <p>
            <RichText text={entry.user.text} termName={termName} />
          </p>
          <h4>
            <Trans>Example</Trans>
          </h4>
          <p>
            <RichText text={entry.user.example} termName={termName} />
          </p>
        </>
      ) : (
        <>
          <h4>
            <Trans>Formula</Trans>
          </h4>
          <p className="formula">
            <RichText text={entry.pro.formula} termName={termName} />
          </p>
          <h4>
            <Trans>Reference</Trans>
          </h4>
          <p>
            <RichText text={entry.pro.reference} termName={termName} />
          </p>
        </>
      )}
      {entry.related.length ? (
        <>
          <h4>
            <Trans>Related</Trans>
          </h4>
          <ul className="chips">
            {entry.related.map((id) => {
              const r = byId.get(id);
              return r ? (
                <li key={id}>
                  <button type="button" className="tab" onClick={() => onOpenTerm(r.slug)}>
                    {r.term}
                  </button>
                </li>
              ) : null;
            })}
          </ul>
        </>
      ) : null}
    </article>
  );
}
