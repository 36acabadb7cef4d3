import { useCallback, useState } from "react";
import { useServices } from "../../app/services.tsx";
import { orFailure } from "../../app/session/session-actor.ts";
import { useData } from "../../app/use-data.ts";
import type { Locale } from "../../contract/common.ts";
import { endpoints } from "../../contract/endpoints.ts";
import type { SectionAnswers, SectionResult, SectionsResponse } from "../../contract/education.ts";

/** The session-storage key of the courses and progress (one per language and product). */
export const sectionsCacheKey = (locale: Locale, product: string) =>
  `education-sections:${locale}:${product}`;

/** A copy of the courses with one section's new progress. */
export function withResult(copy: SectionsResponse, result: SectionResult): SectionsResponse {
  return {
    ...copy,
    courses: copy.courses.map((c) =>
      c.id !== result.course
        ? c
        : {
            ...c,
            sections: c.sections.map((s) =>
              s.id === result.section ? { ...s, progress: result.progress } : s,
            ),
          },
    ),
  };
}

/**
 * The courses and the user's progress (specification section 7): the session-storage copy is
 * read first; only without one is GET /sections called (and its answer kept). A graded quiz
 * (POST /sections) updates the copy. Sign-out clears session storage, so after signing in again
 * the progress comes from the server.
 */
export function useSections(locale: Locale) {
  const { http, cache, product } = useServices();
  const key = sectionsCacheKey(locale, product());
  const [local, setLocal] = useState<SectionsResponse | null>(null);
  const data = useData(`sections:${key}`, async () => {
    const copy = cache?.get<SectionsResponse>(key);
    if (copy) return copy;
    const fresh = await http.call(endpoints.sections);
    cache?.set(key, fresh);
    return fresh;
  });
  const submit = useCallback(
    async (answers: SectionAnswers): Promise<SectionResult> => {
      const result = await orFailure(() => http.call(endpoints.storeSection, { body: answers }));
      const base = cache?.get<SectionsResponse>(key) ?? local ?? data.data;
      if (base) {
        const next = withResult(base, result);
        cache?.set(key, next);
        setLocal(next);
      }
      return result;
    },
    [http, cache, key, local, data.data],
  );
  return { ...data, data: local ?? data.data, submit };
}
