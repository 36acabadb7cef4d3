/**
 * Education (hollypedia in `ht`, program in `tt`; docs/education.md): the schemas of its content
 * files and of its calls (specification section 7: GET /videotutorials/list,
 * GET /dictionary-terms/list, GET /case-studies/list, GET /sections, POST /sections).
 */
import { Schema } from "effect";

/** An id or slug: lower-case kebab-case ASCII, e.g. `value-at-risk`, `valor-en-riesgo`. */
export const KebabId = Schema.String.pipe(
  Schema.check(Schema.isPattern(/^[a-z0-9]+(?:-[a-z0-9]+)*$/), Schema.isMaxLength(80)),
);

const Text = (max: number) =>
  Schema.String.pipe(
    Schema.check(Schema.isTrimmed(), Schema.isNonEmpty(), Schema.isMaxLength(max)),
  );

/**
 * A link to a dictionary entry inside any text of the content: `[[value-at-risk]]` shows the
 * entry's term, `[[value-at-risk|the shown words]]` shows the words. The id is the English id.
 */
export const termLinkPattern = /\[\[([a-z0-9-]+)(?:\|([^\]]+))?\]\]/g;

/** The ids a text links to with `[[id]]` / `[[id|words]]`. */
export function termLinksOf(text: string): string[] {
  return [...text.matchAll(termLinkPattern)].map((m) => m[1] ?? "");
}

/**
 * One dictionary entry in one language: `content/dictionary/<lang>/<id>.json`, the same `id` in
 * both languages. `user` is the plain level (words and an example), `pro` the formula and a
 * reference; `related` lists ids of other entries.
 */
export const DictionaryEntry = Schema.Struct({
  id: KebabId,
  slug: KebabId,
  term: Text(120),
  aliases: Schema.Array(Text(80)),
  user: Schema.Struct({ text: Text(2000), example: Text(1500) }),
  pro: Schema.Struct({ formula: Text(1500), reference: Text(600) }),
  related: Schema.Array(KebabId),
});
export type DictionaryEntry = typeof DictionaryEntry.Type;
