/**
 * The education calls (specification section 7; docs/education.md): the dictionary and the case
 * studies are open to everybody; the video tutorials and the courses need a session and the plan's
 * `hollypedia.videoTutorials` / `hollypedia.courses` (403 PLAN_FEATURE_LOCKED otherwise). Every
 * answer is in the request's language (`lang`, else Accept-Language, else English) and says how
 * long it may be kept (Cache-Control).
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { Hono, type Context } from "hono";
import { Schema } from "effect";
import { CommonQuery, type Locale } from "../../contract/common.ts";
import {
  CaseStudyList,
  DictionaryList,
  SectionAnswers,
  SectionResult,
  SectionsResponse,
  VideoList,
} from "../../contract/education.ts";
import type { AppDeps, AppEnv } from "../app-env.ts";
import { clientById } from "../accounts/clients.ts";
import { requestPermissions, requirePermission } from "../accounts/permissions.ts";
import { ApiFailure } from "../http/api-failure.ts";
import { requireSession } from "../http/auth.ts";
import { idempotent } from "../http/idempotency.ts";
import { jsonBody, paramsOf, queryOf, reply } from "../http/validate.ts";
import { marketView } from "../market/market-view.ts";
import { caseStudyOf } from "../education/case-studies.ts";
import { educationContent, type EducationContent } from "../education/content.ts";
import { coursesWithProgress, gradeSection } from "../education/courses.ts";
import { videoFileNames, videoOf } from "../education/videos.ts";

/** How long answers may be kept (seconds). */
export const CACHE_SECONDS = {
  dictionary: 3600,
  caseStudies: 300,
  videos: 600,
  videoFiles: 86_400,
} as const;

/** The request's language: `lang`, else the first of Accept-Language we speak, else English. */
export function requestLanguage(c: Context): Locale {
  const { lang } = queryOf(c, CommonQuery);
  if (lang) return lang;
  for (const part of (c.req.header("accept-language") ?? "").split(",")) {
    const code = part.trim().slice(0, 2).toLowerCase();
    if (code === "en" || code === "es") return code;
  }
  return "en";
}

const FileParams = Schema.Struct({
  name: Schema.String.pipe(
    Schema.check(Schema.isPattern(/^[a-z0-9][a-z0-9.-]{0,80}\.(?:webm|mp4|vtt|jpg|png)$/)),
  ),
});
const contentTypes: Record<string, string> = {
  webm: "video/webm",
  mp4: "video/mp4",
  vtt: "text/vtt; charset=utf-8",
  jpg: "image/jpeg",
  png: "image/png",
};

export function educationRoutes(
  deps: AppDeps,
  content: () => EducationContent = () => educationContent(),
) {
  const session = requireSession(deps);
  const caseStudyMemo = new Map<string, CaseStudyList>();
  // TT accounts are the education programme's students: their institution's programme includes
  // the video tutorials and the courses whatever the plan (docs/decisions.md, "Education").
  const gate =
    (permission: "videoTutorials" | "courses") =>
    async (c: Context<AppEnv>, next: () => Promise<void>) => {
      if (!(await requestPermissions(deps, c)).hollypedia[permission]) {
        const client = await clientById(deps.database.db, c.get("clientId"));
        requirePermission(client?.kind === "TT");
      }
      await next();
    };

  return new Hono<AppEnv>()
    .get("/dictionary-terms/list", (c) => {
      const language = requestLanguage(c);
      c.header("Cache-Control", `public, max-age=${CACHE_SECONDS.dictionary}`);
      c.header("Vary", "Accept-Language");
      return reply(c, DictionaryList, { language, entries: content().dictionary[language] });
    })
    .get("/case-studies/list", async (c) => {
      const language = requestLanguage(c);
      const view = await marketView(deps.database.db);
      const key = `${view.snapshot.version}:${view.todayIndex}:${language}`;
      let list = caseStudyMemo.get(key);
      if (!list) {
        list = {
          language,
          asOf: view.today,
          caseStudies: content().caseStudies.map((f) => caseStudyOf(view, f, language)),
        };
        if (caseStudyMemo.size > 8) caseStudyMemo.clear();
        caseStudyMemo.set(key, list);
      }
      c.header("Cache-Control", `public, max-age=${CACHE_SECONDS.caseStudies}`);
      c.header("Vary", "Accept-Language");
      return reply(c, CaseStudyList, list);
    })
    .get("/videotutorials/list", session, gate("videoTutorials"), (c) => {
      const language = requestLanguage(c);
      const all = content();
      c.header("Cache-Control", `private, max-age=${CACHE_SECONDS.videos}`);
      return reply(c, VideoList, {
        language,
        videos: all.videos.map((v) => videoOf(all, v, language)),
      });
    })
    .get("/videotutorials/files/:name", session, gate("videoTutorials"), async (c) => {
      const { name } = paramsOf(c, FileParams);
      const all = content();
      if (!videoFileNames(all).has(name)) throw new ApiFailure(404, "NOT_FOUND");
      const body = await readFile(path.join(all.dir, "videos", name));
      return c.body(new Uint8Array(body), 200, {
        "Content-Type": contentTypes[name.split(".").at(-1)!]!,
        "Cache-Control": `private, max-age=${CACHE_SECONDS.videoFiles}`,
      });
    })
    .get("/sections", session, gate("courses"), async (c) => {
      const language = requestLanguage(c);
      c.header("Cache-Control", "private, no-cache");
      return reply(c, SectionsResponse, {
        language,
        courses: await coursesWithProgress(
          deps.database.db,
          content(),
          c.get("clientId"),
          language,
        ),
      });
    })
    .post("/sections", session, gate("courses"), idempotent(deps), async (c) => {
      const answers = await jsonBody(c, SectionAnswers);
      c.header("Cache-Control", "no-store");
      return reply(
        c,
        SectionResult,
        await gradeSection(
          deps.database.db,
          content(),
          c.get("clientId"),
          answers,
          requestLanguage(c),
        ),
      );
    });
}
