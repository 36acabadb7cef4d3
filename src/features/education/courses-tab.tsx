import { Trans, useLingui } from "@lingui/react/macro";
import { useId, useState, type FormEvent } from "react";
import { useFormSubmit } from "../../app/use-form-submit.ts";
import type { Locale } from "../../contract/common.ts";
import type { Course, CourseSection, SectionResult } from "../../contract/education.ts";
import { msgCodeText } from "../../ui/msg-code-text.ts";
import { LoadState } from "./load-state.tsx";
import { RichText } from "../../app/term-link.tsx";
import { useSections } from "./use-sections.ts";

const passedCount = (c: Course) => c.sections.filter((s) => s.progress?.passed).length;

export function CoursesTab({
  locale,
  section,
  onOpen,
  onBack,
}: {
  locale: Locale;
  section: string | null;
  onOpen: (section: string) => void;
  onBack: () => void;
}) {
  const { t } = useLingui();
  const sections = useSections(locale);
  if (!sections.data) return <LoadState data={sections} label={t`Loading the courses`} />;
  const courses = sections.data.courses;
  const [courseKey, sectionKey] = (section ?? "").split("/");
  const course = courses.find((c) => c.id === courseKey || c.slug === courseKey);
  if (section && !course)
    return (
      <div>
        <p role="alert">
          <Trans>There is no such course.</Trans>
        </p>
        <button type="button" className="button" onClick={onBack}>
          <Trans>All courses</Trans>
        </button>
      </div>
    );
  if (course) {
    const current = sectionKey ? course.sections.find((s) => s.id === sectionKey) : undefined;
    if (current)
      return (
        <SectionView
          key={`${course.id}/${current.id}`}
          course={course}
          section={current}
          submit={sections.submit}
          onOpen={onOpen}
        />
      );
    return <CourseView course={course} onOpen={onOpen} onBack={onBack} />;
  }
  return (
    <ul className="education-cards">
      {courses.map((c) => {
        const done = passedCount(c);
        const total = c.sections.length;
        return (
          <li key={c.id} className="card" data-course={c.id}>
            <h3>
              <button type="button" className="link-button" onClick={() => onOpen(c.slug)}>
                {c.title}
              </button>
            </h3>
            <p>{c.summary}</p>
            <CourseProgress done={done} total={total} />
          </li>
        );
      })}
    </ul>
  );
}

function CourseProgress({ done, total }: { done: number; total: number }) {
  const { t } = useLingui();
  return (
    <p className="course-progress">
      <progress value={done} max={total} aria-label={t`Sections passed`} />{" "}
      <span data-testid="course-progress">
        <Trans>
          {done} of {total} sections passed
        </Trans>
      </span>
    </p>
  );
}

function CourseView({
  course,
  onOpen,
  onBack,
}: {
  course: Course;
  onOpen: (section: string) => void;
  onBack: () => void;
}) {
  return (
    <article aria-labelledby={`course-${course.id}`} data-course={course.id}>
      <button type="button" className="link-button" onClick={onBack}>
        <Trans>← All courses</Trans>
      </button>
      <h3 id={`course-${course.id}`}>{course.title}</h3>
      <p className="lead">{course.summary}</p>
      <CourseProgress done={passedCount(course)} total={course.sections.length} />
      <ol className="course-sections">
        {course.sections.map((s) => (
          <li key={s.id}>
            <button
              type="button"
              className="link-button"
              onClick={() => onOpen(`${course.slug}/${s.id}`)}
            >
              {s.title}
            </button>{" "}
            <SectionBadge section={s} />
          </li>
        ))}
      </ol>
    </article>
  );
}

function SectionBadge({ section }: { section: CourseSection }) {
  const p = section.progress;
  if (!p) return null;
  const best = p.bestScore;
  const total = p.total;
  return (
    <span className="badge">
      {p.passed ? (
        <Trans>
          Passed ({best} of {total})
        </Trans>
      ) : (
        <Trans>
          Tried: best {best} of {total}
        </Trans>
      )}
    </span>
  );
}

function SectionView({
  course,
  section,
  submit,
  onOpen,
}: {
  course: Course;
  section: CourseSection;
  submit: (a: { course: string; section: string; answers: number[] }) => Promise<SectionResult>;
  onOpen: (section: string) => void;
}) {
  const { i18n } = useLingui();
  const [answers, setAnswers] = useState<(number | null)[]>(() =>
    section.questions.map(() => null),
  );
  const form = useFormSubmit(submit);
  const result = form.succeeded ? form.result : null;
  const formId = useId();
  const index = course.sections.findIndex((s) => s.id === section.id);
  const next = course.sections[index + 1];
  const complete = answers.every((a) => a !== null);
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (!complete) return;
    form.submit({ course: course.id, section: section.id, answers: answers as number[] });
  };
  return (
    <article aria-labelledby={`${formId}-title`} data-section={section.id}>
      <button type="button" className="link-button" onClick={() => onOpen(course.slug)}>
        ← {course.title}
      </button>
      <h3 id={`${formId}-title`}>{section.title}</h3>
      {section.body.split(/\n{2,}/).map((para, k) => (
        <p key={k}>
          <RichText text={para} />
        </p>
      ))}
      <form className="quiz" onSubmit={onSubmit} aria-labelledby={`${formId}-quiz`}>
        <h4 id={`${formId}-quiz`}>
          <Trans>Quiz</Trans>
        </h4>
        {section.questions.map((q, k) => {
          const r = result?.results[k];
          return (
            <fieldset key={q.id} className="quiz-question" data-question={q.id}>
              <legend>{q.question}</legend>
              {q.options.map((option, o) => (
                <label key={o} className={r && r.answer === o ? "quiz-right" : undefined}>
                  <input
                    type="radio"
                    name={`${formId}-${q.id}`}
                    value={o}
                    checked={answers[k] === o}
                    disabled={form.submitting}
                    onChange={() => {
                      setAnswers(answers.map((a, j) => (j === k ? o : a)));
                      if (form.succeeded) form.edit();
                    }}
                  />{" "}
                  {option}
                </label>
              ))}
              {r ? (
                <p className={r.correct ? "positive" : "negative"}>
                  {r.correct ? <Trans>Right.</Trans> : <Trans>Not quite.</Trans>} {r.explanation}
                </p>
              ) : null}
            </fieldset>
          );
        })}
        <div className="actions-row">
          <button type="submit" className="button primary" disabled={!complete || form.submitting}>
            <Trans>Check my answers</Trans>
          </button>
        </div>
        <div role="status" aria-live="polite">
          {result ? (
            <p data-testid="quiz-score">
              <Score score={result.score} total={result.results.length} />{" "}
              {result.progress.passed ? (
                <Trans>Section passed.</Trans>
              ) : (
                <Trans>Two thirds right passes the section: try again.</Trans>
              )}
            </p>
          ) : null}
        </div>
        {form.error ? (
          <p className="form-message error" role="alert">
            {i18n._(msgCodeText[form.error])}
          </p>
        ) : null}
      </form>
      {result?.progress.passed && next ? (
        <button
          type="button"
          className="button"
          onClick={() => onOpen(`${course.slug}/${next.id}`)}
        >
          <NextSection title={next.title} />
        </button>
      ) : null}
    </article>
  );
}

function Score({ score, total }: { score: number; total: number }) {
  return (
    <Trans>
      You got {score} of {total} right.
    </Trans>
  );
}

function NextSection({ title }: { title: string }) {
  return <Trans>Next section: {title}</Trans>;
}
