import { foldForSearch, type DictionaryEntry } from "../../contract/education.ts";

/**
 * Dictionary search (docs/education.md, "Search"): case and accents ignored in both languages, so
 * "volatilidad" finds "Volatilidad" and "depreciacion" finds "depreciación". Entries whose term
 * starts with the words come first, then terms and aliases that contain them, then ids and slugs,
 * then entries that mention them in their plain-words text.
 */
export function searchEntries(
  entries: readonly DictionaryEntry[],
  query: string,
): DictionaryEntry[] {
  const q = foldForSearch(query.trim());
  if (!q) return [...entries];
  const scored: { entry: DictionaryEntry; score: number; index: number }[] = [];
  entries.forEach((entry, index) => {
    const term = foldForSearch(entry.term);
    const aliases = entry.aliases.map(foldForSearch);
    let score = -1;
    if (term.startsWith(q) || aliases.some((a) => a.startsWith(q))) score = 0;
    else if (term.includes(q) || aliases.some((a) => a.includes(q))) score = 1;
    else if (
      entry.slug.includes(q.replace(/\s+/g, "-")) ||
      entry.id.includes(q.replace(/\s+/g, "-"))
    )
      score = 2;
    else if (foldForSearch(entry.user.text).includes(q)) score = 3;
    if (score >= 0) scored.push({ entry, score, index });
  });
  return scored.sort((a, b) => a.score - b.score || a.index - b.index).map((s) => s.entry);
}

/** The entry a `term` parameter names: by id, or by the slug of the loaded language. */
export function entryOf(
  entries: readonly DictionaryEntry[],
  term: string | null,
): DictionaryEntry | null {
  if (!term) return null;
  return entries.find((e) => e.id === term || e.slug === term) ?? null;
}
