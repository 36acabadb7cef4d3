// Every education content file validates with its schema (src/contract/education.ts) and every
// cross reference resolves: each dictionary entry in both languages, each `related` id and each
// [[term]] link, each case study's, course's and video's terms, each video's files and both of
// its subtitle tracks (docs/education.md, "Content").
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { foldForSearch, termLinksOf } from "../../src/contract/education.ts";
import {
  contentProblems,
  defaultContentDir,
  loadContent,
} from "../../src/server/education/content.ts";
import { vttCues } from "../../src/server/education/videos.ts";

const content = loadContent(defaultContentDir);

describe("the education content", () => {
  it("validates with the schemas and has no broken reference", () => {
    expect(contentProblems(content)).toEqual([]);
  });

  it("has at least 150 dictionary entries, each in English and Spanish", () => {
    expect(content.dictionary.en.length).toBeGreaterThanOrEqual(150);
    expect(content.dictionary.es.map((e) => e.id).sort()).toEqual(
      content.dictionary.en.map((e) => e.id).sort(),
    );
  });

  it("links the main figures of the product's screens to entries", () => {
    const ids = new Set(content.dictionary.en.map((e) => e.id));
    for (const id of [
      "value-at-risk",
      "conditional-value-at-risk",
      "volatility",
      "diversification",
      "euler-allocation",
      "sharpe-ratio",
      "maximum-drawdown",
      "efficient-frontier",
      "ledoit-wolf-shrinkage",
      // The hindsight caution of backtests and crisis replays (issue 24).
      "hindsight-bias",
      "survivorship-bias",
    ])
      expect(ids, id).toContain(id);
  });

  it("gives every dictionary file the name of its id, in both language folders", () => {
    for (const lang of ["en", "es"]) {
      const dir = path.join(defaultContentDir, "dictionary", lang);
      for (const file of readdirSync(dir).filter((f) => f.endsWith(".json"))) {
        const entry = JSON.parse(readFileSync(path.join(dir, file), "utf8")) as { id: string };
        expect(`${entry.id}.json`).toBe(file);
      }
    }
  });

  it("has at least 6 case studies and 3 courses with quizzes, told in both languages", () => {
    expect(content.caseStudies.length).toBeGreaterThanOrEqual(6);
    expect(content.courses.length).toBeGreaterThanOrEqual(3);
    for (const c of content.courses)
      for (const s of c.sections) expect(s.quiz.length, `${c.id}/${s.id}`).toBeGreaterThan(0);
  });

  it("gives every video both subtitle tracks with cues", () => {
    for (const v of content.videos)
      for (const lang of ["en", "es"] as const) {
        const file = path.join(defaultContentDir, "videos", v.subtitles[lang]);
        expect(existsSync(file), `${v.id} ${lang}`).toBe(true);
        const text = readFileSync(file, "utf8");
        expect(text.startsWith("WEBVTT"), `${v.id} ${lang}`).toBe(true);
        expect(vttCues(text).length, `${v.id} ${lang}`).toBeGreaterThan(0);
      }
  });
});

describe("the content's helpers", () => {
  it("read term links in a text", () => {
    expect(termLinksOf("See [[volatility]] and [[value-at-risk|the VaR]].")).toEqual([
      "volatility",
      "value-at-risk",
    ]);
    expect(termLinksOf("no links [here]")).toEqual([]);
  });

  it("fold accents and case for search in both languages", () => {
    expect(foldForSearch("Volatilidad")).toBe(foldForSearch("volatilidád"));
    expect(foldForSearch("Depreciación")).toBe("depreciacion");
    expect(foldForSearch("ÑANDÚ")).toBe("nandu");
  });

  it("find the problems it is meant to find", () => {
    const broken = {
      ...content,
      dictionary: {
        en: [
          ...content.dictionary.en,
          {
            ...content.dictionary.en[0]!,
            id: "only-in-english",
            slug: "only-in-english",
            related: ["no-such-term"],
            user: { text: "See [[missing-term]].", example: "x" },
          },
        ],
        es: content.dictionary.es,
      },
    };
    const problems = contentProblems(broken);
    expect(problems).toContain("dictionary/en/only-in-english: no Spanish entry");
    expect(problems).toContain(
      'dictionary/en/only-in-english: related term "no-such-term" does not exist',
    );
    expect(problems).toContain(
      'dictionary/en/only-in-english: link to unknown term "missing-term"',
    );
  });
});
