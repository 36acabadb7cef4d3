/**
 * The education content (docs/education.md, "Content"): JSON files under `content/`, one per
 * dictionary entry and language, one per case study, course and video tutorial, each validated
 * with its schema in src/contract/education.ts. Loaded once per process and kept in memory; a file
 * that does not validate stops the load with its path and the schema's message, so a broken file
 * is caught by the content test in CI and at start, never served.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { Schema } from "effect";
import type { Locale } from "../../contract/common.ts";
import {
  CaseStudyFile,
  CourseFile,
  DictionaryEntry,
  termLinksOf,
  VideoFile,
} from "../../contract/education.ts";

export const defaultContentDir = path.resolve(import.meta.dirname, "../../../content");

export interface EducationContent {
  readonly dir: string;
  /** Dictionary entries by language, sorted by term in that language. */
  readonly dictionary: Readonly<Record<Locale, readonly DictionaryEntry[]>>;
  readonly caseStudies: readonly CaseStudyFile[];
  readonly courses: readonly CourseFile[];
  readonly videos: readonly VideoFile[];
}

export class ContentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ContentError";
  }
}

const jsonFiles = (dir: string): string[] =>
  existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith(".json"))
        .sort()
    : [];

function readValidated<S extends Schema.Decoder<unknown>>(file: string, schema: S): S["Type"] {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new ContentError(`${file}: not valid JSON (${(error as Error).message})`);
  }
  try {
    return Schema.decodeUnknownSync(schema as Schema.Decoder<unknown>)(raw);
  } catch (error) {
    throw new ContentError(`${file}: ${(error as Error).message}`);
  }
}

/** Reads every file of a folder with one schema; the file name must be `<id>.json`. */
function readAll<S extends Schema.Decoder<{ readonly id: string }>>(
  dir: string,
  schema: S,
): S["Type"][] {
  return jsonFiles(dir).map((name) => {
    const item = readValidated(path.join(dir, name), schema) as { id: string };
    if (`${item.id}.json` !== name)
      throw new ContentError(`${path.join(dir, name)}: id "${item.id}" differs from the file name`);
    return item as S["Type"];
  });
}

const byOrder = <T extends { readonly order: number; readonly id: string }>(a: T, b: T) =>
  a.order - b.order || a.id.localeCompare(b.id);

/** Loads and validates all content of a folder (no cross checks: see `contentProblems`). */
export function loadContent(dir = defaultContentDir): EducationContent {
  const dictionary = {} as Record<Locale, DictionaryEntry[]>;
  for (const lang of ["en", "es"] as const) {
    const collator = new Intl.Collator(lang, { sensitivity: "base" });
    dictionary[lang] = readAll(path.join(dir, "dictionary", lang), DictionaryEntry).sort((a, b) =>
      collator.compare(a.term, b.term),
    );
  }
  return {
    dir,
    dictionary,
    caseStudies: readAll(path.join(dir, "case-studies"), CaseStudyFile).sort(byOrder),
    courses: readAll(path.join(dir, "courses"), CourseFile).sort(byOrder),
    videos: readAll(path.join(dir, "videos"), VideoFile).sort(byOrder),
  };
}

/**
 * What is wrong across files: an entry in one language only, two entries with one slug, a
 * `related` id or a `[[term]]` link or a `terms` id that is no entry, a course whose quiz answer
 * is not one of its options, a video without a file or a subtitle track.
 */
export function contentProblems(content: EducationContent): string[] {
  const problems: string[] = [];
  const { en, es } = content.dictionary;
  const ids = new Set(en.map((e) => e.id));
  for (const e of es) if (!ids.has(e.id)) problems.push(`dictionary/es/${e.id}: no English entry`);
  const esIds = new Set(es.map((e) => e.id));
  for (const e of en)
    if (!esIds.has(e.id)) problems.push(`dictionary/en/${e.id}: no Spanish entry`);
  const known = (id: string) => ids.has(id) && esIds.has(id);
  const checkLinks = (where: string, texts: readonly string[]) => {
    for (const text of texts)
      for (const id of termLinksOf(text))
        if (!known(id)) problems.push(`${where}: link to unknown term "${id}"`);
  };
  const checkTerms = (where: string, terms: readonly string[]) => {
    for (const id of terms) if (!known(id)) problems.push(`${where}: unknown term "${id}"`);
  };
  for (const lang of ["en", "es"] as const) {
    const slugs = new Map<string, string>();
    for (const e of content.dictionary[lang]) {
      const where = `dictionary/${lang}/${e.id}`;
      const other = slugs.get(e.slug);
      if (other) problems.push(`${where}: slug "${e.slug}" also used by ${other}`);
      slugs.set(e.slug, e.id);
      if (e.related.includes(e.id)) problems.push(`${where}: related to itself`);
      for (const r of e.related)
        if (!known(r)) problems.push(`${where}: related term "${r}" does not exist`);
      checkLinks(where, [e.user.text, e.user.example, e.pro.formula, e.pro.reference]);
    }
  }
  for (const c of content.caseStudies) {
    const where = `case-studies/${c.id}`;
    checkTerms(where, c.terms);
    for (const lang of ["en", "es"] as const) {
      const t = c.text[lang];
      checkLinks(`${where} (${lang})`, [
        t.summary,
        t.user.happened,
        t.user.lesson,
        t.pro.happened,
        t.pro.lesson,
      ]);
    }
    if (c.period.from >= c.period.to) problems.push(`${where}: period ends before it starts`);
    for (const p of c.portfolios) {
      const sum = p.holdings.reduce((s, h) => s + h.weight, 0);
      if (Math.abs(sum - 1) > 1e-9) problems.push(`${where}/${p.key}: weights add up to ${sum}`);
    }
  }
  for (const c of content.courses) {
    const where = `courses/${c.id}`;
    checkTerms(where, c.terms);
    const sectionIds = new Set<string>();
    for (const s of c.sections) {
      if (sectionIds.has(s.id)) problems.push(`${where}/${s.id}: section id used twice`);
      sectionIds.add(s.id);
      for (const lang of ["en", "es"] as const)
        checkLinks(`${where}/${s.id} (${lang})`, [s.body[lang]]);
      for (const q of s.quiz) {
        if (q.options.en.length !== q.options.es.length)
          problems.push(`${where}/${s.id}/${q.id}: options differ in number between languages`);
        if (q.answer >= q.options.en.length)
          problems.push(`${where}/${s.id}/${q.id}: the answer is not one of the options`);
      }
    }
  }
  for (const v of content.videos) {
    const where = `videos/${v.id}`;
    checkTerms(where, v.terms);
    for (const file of [v.video, v.subtitles.en, v.subtitles.es, ...(v.poster ? [v.poster] : [])])
      if (!existsSync(path.join(content.dir, "videos", file)))
        problems.push(`${where}: file ${file} is missing`);
  }
  return problems;
}

const cache = new Map<string, EducationContent>();

/** The content of a folder, loaded and checked once per process. */
export function educationContent(dir = defaultContentDir): EducationContent {
  let content = cache.get(dir);
  if (!content) {
    content = loadContent(dir);
    cache.set(dir, content);
  }
  return content;
}
