/**
 * Video tutorials (docs/education.md, "Video tutorials"): each content/videos/<id>.json names its
 * video file and its WebVTT subtitles in both languages, kept next to it. The list answers the
 * tracks and the transcript (the subtitles' cues in the user's language); the files are served
 * under /videotutorials/files/<name> to clients whose plan includes them.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Locale } from "../../contract/common.ts";
import type { VideoFile, VideoTutorial } from "../../contract/education.ts";
import type { EducationContent } from "./content.ts";

export const VIDEO_FILES_PATH = "/videotutorials/files";

const timeOf = (stamp: string): number => {
  const parts = stamp.trim().split(":").map(Number);
  return parts.reduce((s, p) => s * 60 + p, 0);
};

/** The cues of a WebVTT file: start time (seconds) and text (lines joined, tags removed). */
export function vttCues(vtt: string): { start: number; end: number; text: string }[] {
  const cues: { start: number; end: number; text: string }[] = [];
  for (const block of vtt.replace(/\r\n?/g, "\n").split(/\n{2,}/)) {
    const lines = block.split("\n");
    const at = lines.findIndex((l) => l.includes("-->"));
    if (at < 0) continue;
    const [from, to] = lines[at]!.split("-->");
    const text = lines
      .slice(at + 1)
      .join(" ")
      .replace(/<[^>]+>/g, "")
      .trim();
    if (text) cues.push({ start: timeOf(from!), end: timeOf(to!.trim().split(/\s+/)[0]!), text });
  }
  return cues;
}

export function videoOf(content: EducationContent, file: VideoFile, lang: Locale): VideoTutorial {
  const dir = path.join(content.dir, "videos");
  const cues = vttCues(readFileSync(path.join(dir, file.subtitles[lang]), "utf8"));
  return {
    id: file.id,
    slug: file.slug[lang],
    title: file.title[lang],
    summary: file.summary[lang],
    durationSeconds: file.durationSeconds,
    video: `${VIDEO_FILES_PATH}/${file.video}`,
    poster: file.poster ? `${VIDEO_FILES_PATH}/${file.poster}` : null,
    tracks: (["en", "es"] as const).map((language) => ({
      language,
      src: `${VIDEO_FILES_PATH}/${file.subtitles[language]}`,
    })),
    transcript: cues.map((c) => ({ start: c.start, text: c.text })),
    terms: file.terms,
  };
}

/** The files a client may fetch: the ones the video tutorials name. */
export function videoFileNames(content: EducationContent): Set<string> {
  return new Set(
    content.videos.flatMap((v) => [
      v.video,
      v.subtitles.en,
      v.subtitles.es,
      ...(v.poster ? [v.poster] : []),
    ]),
  );
}
