import { foldForSearch, type DictionaryEntry } from "../../contract/education.ts";

/**
 * Dictionary search (docs/education.md, "Search"): case and accents ignored in both languages, so
 * "volatilidad" finds "Volatilidad" and "depreciacion" finds "depreciación". Ranked by how the
 * query meets the entry, best first:
 *
 * 0. the term is the query;
 * 1. the term starts with the query;
 * 2. the term contains it ("Ratio de diversificación");
 * 3. an alias is, or starts with, the query;
 * 4. an alias contains it;
 * 5. every word of the query is in the term or an alias ("market hypothesis");
 * 6. the id or the slug contains it;
 * 7. every word of the query is somewhere in the entry's plain-words text or example
 *    ("cartera eficiente").
 *
 * Within a rank, the dictionary's own (alphabetical) order.
 */
export function searchEntries(
  entries: readonly DictionaryEntry[],
  query: string,
): DictionaryEntry[] {
  const q = foldForSearch(query.trim()).replace(/\s+/g, " ");
  if (!q) return [...entries];
  const words = q.split(" ");
  const dashed = q.replace(/ /g, "-");
  const scored: { entry: DictionaryEntry; score: number; index: number }[] = [];
  entries.forEach((entry, index) => {
    const score = rankOf(entry, q, words, dashed);
    if (score !== null) scored.push({ entry, score, index });
  });
  return scored.sort((a, b) => a.score - b.score || a.index - b.index).map((s) => s.entry);
}

function rankOf(
  entry: DictionaryEntry,
  q: string,
  words: readonly string[],
  dashed: string,
): number | null {
  const term = foldForSearch(entry.term);
  const aliases = entry.aliases.map(foldForSearch);
  const names = [term, ...aliases];
  if (term === q) return 0;
  if (term.startsWith(q)) return 1;
  if (term.includes(q)) return 2;
  if (aliases.some((a) => a.startsWith(q))) return 3;
  if (aliases.some((a) => a.includes(q))) return 4;
  const everyWordIn = (text: string) => words.every((w) => text.includes(w));
  if (everyWordIn(names.join(" "))) return 5;
  if (entry.slug.includes(dashed) || entry.id.includes(dashed)) return 6;
  if (
    everyWordIn(
      `${names.join(" ")} ${foldForSearch(entry.user.text)} ${foldForSearch(entry.user.example)}`,
    )
  )
    return 7;
  return null;
}

/** The entry a `term` parameter names: by id, or by the slug of the loaded language. */
export function entryOf(
  entries: readonly DictionaryEntry[],
  term: string | null,
): DictionaryEntry | null {
  if (!term) return null;
  return entries.find((e) => e.id === term || e.slug === term) ?? null;
}
