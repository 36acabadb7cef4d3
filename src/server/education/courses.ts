/**
 * Courses and the user's progress (docs/education.md, "Courses"): GET /sections answers the
 * courses in the user's language without the quiz answers, each section with the user's progress;
 * POST /sections grades one section's answers on the server and stores the best and last score.
 */
import { and, eq, sql } from "drizzle-orm";
import type { Locale } from "../../contract/common.ts";
import {
  passes,
  type Course,
  type SectionAnswers,
  type SectionProgress,
  type SectionResult,
} from "../../contract/education.ts";
import type { Db } from "../db/database.ts";
import { educationProgress } from "../db/schema.ts";
import { ApiFailure } from "../http/api-failure.ts";
import type { EducationContent } from "./content.ts";

type ProgressRow = typeof educationProgress.$inferSelect;

const progressOf = (row: ProgressRow): SectionProgress => ({
  bestScore: row.bestScore,
  lastScore: row.lastScore,
  total: row.total,
  attempts: row.attempts,
  passed: row.passed,
  updatedAt: row.updatedAt.toISOString(),
});

/** The courses in one language with a client's progress in each section. */
export async function coursesWithProgress(
  db: Db,
  content: EducationContent,
  clientId: number,
  lang: Locale,
): Promise<Course[]> {
  const rows = await db
    .select()
    .from(educationProgress)
    .where(eq(educationProgress.clientId, clientId));
  const byKey = new Map(rows.map((r) => [`${r.courseId}/${r.sectionId}`, r]));
  return content.courses.map((c) => ({
    id: c.id,
    slug: c.slug[lang],
    level: c.level,
    title: c.title[lang],
    summary: c.summary[lang],
    terms: c.terms,
    sections: c.sections.map((s) => {
      const row = byKey.get(`${c.id}/${s.id}`);
      return {
        id: s.id,
        title: s.title[lang],
        body: s.body[lang],
        questions: s.quiz.map((q) => ({
          id: q.id,
          question: q.question[lang],
          options: q.options[lang],
        })),
        progress: row ? progressOf(row) : null,
      };
    }),
  }));
}

/**
 * Grades a section's answers and stores the attempt: the best score is kept, the last one
 * replaced, and a section once passed stays passed. One statement, so two devices answering at
 * once both count.
 */
export async function gradeSection(
  db: Db,
  content: EducationContent,
  clientId: number,
  answers: SectionAnswers,
  lang: Locale,
): Promise<SectionResult> {
  const section = content.courses
    .find((c) => c.id === answers.course)
    ?.sections.find((s) => s.id === answers.section);
  if (!section) throw new ApiFailure(404, "NOT_FOUND");
  if (answers.answers.length !== section.quiz.length)
    throw new ApiFailure(400, "INVALID_REQUEST", [
      { path: "answers", message: `Expected ${section.quiz.length} answers` },
    ]);
  const results = section.quiz.map((q, k) => ({
    correct: answers.answers[k] === q.answer,
    answer: q.answer,
    explanation: q.explanation[lang],
  }));
  const score = results.filter((r) => r.correct).length;
  const total = section.quiz.length;
  const passed = passes(score, total);
  const [row] = await db
    .insert(educationProgress)
    .values({
      clientId,
      courseId: answers.course,
      sectionId: answers.section,
      bestScore: score,
      lastScore: score,
      total,
      attempts: 1,
      passed,
    })
    .onConflictDoUpdate({
      target: [educationProgress.clientId, educationProgress.courseId, educationProgress.sectionId],
      set: {
        bestScore: sql`greatest(${educationProgress.bestScore}, excluded.best_score)`,
        lastScore: sql`excluded.last_score`,
        total: sql`excluded.total`,
        attempts: sql`${educationProgress.attempts} + 1`,
        passed: sql`${educationProgress.passed} or excluded.passed`,
        updatedAt: sql`now()`,
      },
    })
    .returning();
  return {
    course: answers.course,
    section: answers.section,
    score,
    results,
    progress: progressOf(row!),
  };
}

/** Forgets a client's progress in one course (used by tests and support). */
export async function resetCourse(db: Db, clientId: number, courseId: string): Promise<void> {
  await db
    .delete(educationProgress)
    .where(and(eq(educationProgress.clientId, clientId), eq(educationProgress.courseId, courseId)));
}
