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

// ---------------------------------------------------------------------------------------------
// The section: its query parameters (PRODUCT.md, "Education").

export const EducationTab = Schema.Literals([
  "dictionary",
  "videotutorials",
  "casestudies",
  "education",
]);
export type EducationTab = typeof EducationTab.Type;
export const educationTabs: readonly EducationTab[] = [
  "dictionary",
  "videotutorials",
  "casestudies",
  "education",
];

export const ContentLevel = Schema.Literals(["user", "pro"]);
export type ContentLevel = typeof ContentLevel.Type;

/** The query parameter that names the section: `hollypedia` in `ht`, `program` in `tt`. */
export const sectionParamOf = (edition: "ht" | "tt"): "hollypedia" | "program" =>
  edition === "tt" ? "program" : "hollypedia";

/** The tab the section opens on without one: dictionary in `ht`, education (courses) in `tt`. */
export const defaultTabOf = (edition: "ht" | "tt"): EducationTab =>
  edition === "tt" ? "education" : "dictionary";

/** The permission that gates a tab (null: open to everybody). */
export const tabPermission = {
  dictionary: null,
  videotutorials: "videoTutorials",
  casestudies: null,
  education: "courses",
} as const satisfies Record<EducationTab, "videoTutorials" | "courses" | null>;

const Language = Schema.Literals(["en", "es"]);

/** A text in both languages (course and case-study files hold both). */
export const Bilingual = (max: number) => Schema.Struct({ en: Text(max), es: Text(max) });

/**
 * Folds a text for search: lower case, accents and other combining marks removed, so "volatilidad"
 * finds "Volatilidad" and "volatilidád", and "cartera" finds "Cartera".
 */
export const foldForSearch = (text: string): string =>
  text
    .normalize("NFD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase();

// ---------------------------------------------------------------------------------------------
// GET /dictionary-terms/list

export const DictionaryList = Schema.Struct({
  language: Language,
  entries: Schema.Array(DictionaryEntry),
});
export type DictionaryList = typeof DictionaryList.Type;

// ---------------------------------------------------------------------------------------------
// Case studies: content/case-studies/<id>.json; figures computed by the engine at request time.

const Symbol = Schema.String.pipe(Schema.check(Schema.isPattern(/^[A-Za-z0-9._^-]{1,32}$/)));
const IsoDay = Schema.String.pipe(Schema.check(Schema.isPattern(/^\d{4}-\d{2}-\d{2}$/)));
const Weight = Schema.Number.pipe(
  Schema.check(Schema.isGreaterThan(0), Schema.isLessThanOrEqualTo(1)),
);

/** One holding: the first of its symbols that has prices over the window is used. */
export const CaseStudyHolding = Schema.Struct({
  symbols: Schema.Array(Symbol).pipe(Schema.check(Schema.isMinLength(1), Schema.isMaxLength(6))),
  weight: Weight,
});

export const CaseStudyPortfolio = Schema.Struct({
  key: KebabId,
  label: Bilingual(80),
  holdings: Schema.Array(CaseStudyHolding).pipe(
    Schema.check(Schema.isMinLength(1), Schema.isMaxLength(10)),
  ),
});

const CaseStudyLevelText = Schema.Struct({ happened: Text(3000), lesson: Text(2000) });
const CaseStudyText = Schema.Struct({
  title: Text(120),
  summary: Text(400),
  user: CaseStudyLevelText,
  pro: CaseStudyLevelText,
});

export const Rebalancing = Schema.Literals(["none", "monthly", "quarterly", "annual"]);

/** A case study's file: the episode's dates, the portfolios the engine values, and its text. */
export const CaseStudyFile = Schema.Struct({
  id: KebabId,
  order: Schema.Number.pipe(Schema.check(Schema.isInt())),
  slug: Schema.Struct({ en: KebabId, es: KebabId }),
  period: Schema.Struct({ from: IsoDay, to: IsoDay }),
  rebalancing: Rebalancing,
  portfolios: Schema.Array(CaseStudyPortfolio).pipe(
    Schema.check(Schema.isMinLength(1), Schema.isMaxLength(4)),
  ),
  /** Dictionary entries the case study is about. */
  terms: Schema.Array(KebabId),
  text: Schema.Struct({ en: CaseStudyText, es: CaseStudyText }),
});
export type CaseStudyFile = typeof CaseStudyFile.Type;

export const Performance = Schema.Struct({
  totalReturn: Schema.Number,
  annualizedReturn: Schema.Number,
  volatility: Schema.Number,
  maxDrawdown: Schema.Number,
  sharpe: Schema.Number,
});
export type Performance = typeof Performance.Type;

export const CaseStudyFigures = Schema.Struct({
  key: KebabId,
  label: Schema.String,
  holdings: Schema.Array(
    Schema.Struct({ symbol: Symbol, name: Schema.String, currency: Schema.String, weight: Weight }),
  ),
  performance: Performance,
  /** The value of 100 invested at the start, on at most ~120 days of the window (for the chart). */
  path: Schema.Array(Schema.Struct({ date: IsoDay, value: Schema.Number })),
});
export type CaseStudyFigures = typeof CaseStudyFigures.Type;

export const CaseStudy = Schema.Struct({
  id: KebabId,
  slug: KebabId,
  title: Schema.String,
  summary: Schema.String,
  user: CaseStudyLevelText,
  pro: CaseStudyLevelText,
  terms: Schema.Array(KebabId),
  rebalancing: Rebalancing,
  /** The episode's own dates. */
  period: Schema.Struct({ from: IsoDay, to: IsoDay }),
  /**
   * The data the figures were computed on: the episode's window when the market data covers it;
   * otherwise (e.g. the simulated market) the latest window of as many trading days, said so.
   */
  data: Schema.Struct({
    source: Schema.Literals(["imported", "simulated", "empty"]),
    from: Schema.NullOr(IsoDay),
    to: Schema.NullOr(IsoDay),
    episode: Schema.Boolean,
  }),
  /** Empty when the market has no data for it. */
  portfolios: Schema.Array(CaseStudyFigures),
});
export type CaseStudy = typeof CaseStudy.Type;

export const CaseStudyList = Schema.Struct({
  language: Language,
  asOf: Schema.NullOr(IsoDay),
  caseStudies: Schema.Array(CaseStudy),
});
export type CaseStudyList = typeof CaseStudyList.Type;

// ---------------------------------------------------------------------------------------------
// Courses: content/courses/<id>.json; progress through GET /sections and POST /sections.

export const QuizQuestionFile = Schema.Struct({
  id: KebabId,
  question: Bilingual(400),
  options: Schema.Struct({
    en: Schema.Array(Text(200)).pipe(Schema.check(Schema.isMinLength(2), Schema.isMaxLength(5))),
    es: Schema.Array(Text(200)).pipe(Schema.check(Schema.isMinLength(2), Schema.isMaxLength(5))),
  }),
  /** Index of the right option. */
  answer: Schema.Number.pipe(
    Schema.check(Schema.isInt(), Schema.isBetween({ minimum: 0, maximum: 4 })),
  ),
  explanation: Bilingual(600),
});

export const CourseSectionFile = Schema.Struct({
  id: KebabId,
  title: Bilingual(120),
  body: Bilingual(4000),
  quiz: Schema.Array(QuizQuestionFile).pipe(
    Schema.check(Schema.isMinLength(1), Schema.isMaxLength(6)),
  ),
});

export const CourseFile = Schema.Struct({
  id: KebabId,
  order: Schema.Number.pipe(Schema.check(Schema.isInt())),
  slug: Schema.Struct({ en: KebabId, es: KebabId }),
  level: ContentLevel,
  title: Bilingual(120),
  summary: Bilingual(400),
  terms: Schema.Array(KebabId),
  sections: Schema.Array(CourseSectionFile).pipe(
    Schema.check(Schema.isMinLength(2), Schema.isMaxLength(12)),
  ),
});
export type CourseFile = typeof CourseFile.Type;

/** A section passes with at least this share of right answers. */
export const PASS_SHARE = 2 / 3;
export const passes = (score: number, total: number): boolean =>
  total > 0 && score >= Math.ceil(total * PASS_SHARE - 1e-9);

export const SectionProgress = Schema.Struct({
  /** Best score so far, out of `total`. */
  bestScore: Schema.Number.pipe(Schema.check(Schema.isInt(), Schema.isGreaterThanOrEqualTo(0))),
  lastScore: Schema.Number.pipe(Schema.check(Schema.isInt(), Schema.isGreaterThanOrEqualTo(0))),
  total: Schema.Number.pipe(Schema.check(Schema.isInt(), Schema.isGreaterThan(0))),
  attempts: Schema.Number.pipe(Schema.check(Schema.isInt(), Schema.isGreaterThan(0))),
  passed: Schema.Boolean,
  updatedAt: Schema.String,
});
export type SectionProgress = typeof SectionProgress.Type;

export const CourseSection = Schema.Struct({
  id: KebabId,
  title: Schema.String,
  body: Schema.String,
  questions: Schema.Array(
    Schema.Struct({ id: KebabId, question: Schema.String, options: Schema.Array(Schema.String) }),
  ),
  progress: Schema.NullOr(SectionProgress),
});
export type CourseSection = typeof CourseSection.Type;

export const Course = Schema.Struct({
  id: KebabId,
  slug: KebabId,
  level: ContentLevel,
  title: Schema.String,
  summary: Schema.String,
  terms: Schema.Array(KebabId),
  sections: Schema.Array(CourseSection),
});
export type Course = typeof Course.Type;

/** GET /sections: the courses in the user's language with the user's progress in each section. */
export const SectionsResponse = Schema.Struct({
  language: Language,
  courses: Schema.Array(Course),
});
export type SectionsResponse = typeof SectionsResponse.Type;

/** POST /sections: the answers to one section's quiz, in the order of its questions. */
export const SectionAnswers = Schema.Struct({
  course: KebabId,
  section: KebabId,
  answers: Schema.Array(
    Schema.Number.pipe(Schema.check(Schema.isInt(), Schema.isBetween({ minimum: 0, maximum: 4 }))),
  ).pipe(Schema.check(Schema.isMinLength(1), Schema.isMaxLength(6))),
});
export type SectionAnswers = typeof SectionAnswers.Type;

/** The server grades the answers (the right ones never reach the client before) and stores the score. */
export const SectionResult = Schema.Struct({
  course: KebabId,
  section: KebabId,
  score: Schema.Number,
  results: Schema.Array(
    Schema.Struct({ correct: Schema.Boolean, answer: Schema.Number, explanation: Schema.String }),
  ),
  progress: SectionProgress,
});
export type SectionResult = typeof SectionResult.Type;

// ---------------------------------------------------------------------------------------------
// Video tutorials: content/videos/<id>.json, with its files next to it.

const FileName = Schema.String.pipe(
  Schema.check(Schema.isPattern(/^[a-z0-9][a-z0-9.-]{0,80}\.(?:webm|mp4|vtt|jpg|png)$/)),
);

export const VideoFile = Schema.Struct({
  id: KebabId,
  order: Schema.Number.pipe(Schema.check(Schema.isInt())),
  slug: Schema.Struct({ en: KebabId, es: KebabId }),
  title: Bilingual(120),
  summary: Bilingual(400),
  video: FileName,
  poster: Schema.optional(FileName),
  durationSeconds: Schema.Number.pipe(Schema.check(Schema.isGreaterThan(0))),
  subtitles: Schema.Struct({ en: FileName, es: FileName }),
  terms: Schema.Array(KebabId),
});
export type VideoFile = typeof VideoFile.Type;

export const VideoTutorial = Schema.Struct({
  id: KebabId,
  slug: KebabId,
  title: Schema.String,
  summary: Schema.String,
  durationSeconds: Schema.Number,
  /** Paths under the API base (fetched with the session). */
  video: Schema.String,
  poster: Schema.NullOr(Schema.String),
  tracks: Schema.Array(Schema.Struct({ language: Language, src: Schema.String })),
  /** The subtitles' text in the user's language, cue by cue. */
  transcript: Schema.Array(Schema.Struct({ start: Schema.Number, text: Schema.String })),
  terms: Schema.Array(KebabId),
});
export type VideoTutorial = typeof VideoTutorial.Type;

export const VideoList = Schema.Struct({
  language: Language,
  videos: Schema.Array(VideoTutorial),
});
export type VideoList = typeof VideoList.Type;

// ---------------------------------------------------------------------------------------------
// The section's query parameters, read and written (PRODUCT.md, "Education").

export interface SectionParams {
  /** The tab; null when the section was opened without one (the edition's default applies). */
  readonly tab: EducationTab | null;
  readonly level: ContentLevel;
  /** An item of the tab: a case study, course (or `course/section`) or video, by id or slug. */
  readonly section: string | null;
  /** A dictionary entry, by id or slug in either language. */
  readonly term: string | null;
}

const isTab = (v: string | null): v is EducationTab =>
  v !== null && (educationTabs as readonly string[]).includes(v);
const cleanItem = (v: string | null): string | null =>
  v && /^[a-z0-9]+(?:-[a-z0-9]+)*(?:\/[a-z0-9]+(?:-[a-z0-9]+)*)?$/.test(v) && v.length <= 161
    ? v
    : null;

/**
 * The section's parameters in a query string, or null when the section is closed (its name is
 * absent). An unknown tab opens the default one; an unknown level is `user`. A `term` without a
 * tab opens the dictionary.
 */
export function readSectionParams(
  search: string | URLSearchParams,
  edition: "ht" | "tt",
): SectionParams | null {
  const q = typeof search === "string" ? new URLSearchParams(search) : search;
  const name = sectionParamOf(edition);
  if (!q.has(name)) return null;
  const raw = q.get(name);
  const term = cleanItem(q.get("term"));
  return {
    tab: isTab(raw) ? raw : term ? "dictionary" : null,
    level: q.get("level") === "pro" ? "pro" : "user",
    section: cleanItem(q.get("section")),
    term,
  };
}

/**
 * A query string with the section's parameters set (or removed, for null), keeping every other
 * parameter of the page.
 */
export function writeSectionParams(
  search: string,
  edition: "ht" | "tt",
  params: SectionParams | null,
): string {
  const q = new URLSearchParams(search);
  const name = sectionParamOf(edition);
  for (const key of [name, "level", "section", "term"]) q.delete(key);
  if (params) {
    q.set(name, params.tab ?? defaultTabOf(edition));
    q.set("level", params.level);
    if (params.section) q.set("section", params.section);
    if (params.term) q.set("term", params.term);
  }
  const s = q.toString();
  return s ? `?${s}` : "";
}
