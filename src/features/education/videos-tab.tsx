import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useRef, useState } from "react";
import { useServices } from "../../app/services.tsx";
import { useData } from "../../app/use-data.ts";
import type { Locale } from "../../contract/common.ts";
import { endpoints } from "../../contract/endpoints.ts";
import type { VideoTutorial } from "../../contract/education.ts";
import { LoadState } from "./load-state.tsx";

export function VideosTab({
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
  const { http } = useServices();
  const data = useData(`videos:${locale}`, () => http.call(endpoints.videoTutorials));
  if (!data.data) return <LoadState data={data} label={t`Loading the video tutorials`} />;
  const videos = data.data.videos;
  if (!videos.length)
    return (
      <p className="notice">
        <Trans>No video tutorials have been published yet.</Trans>
      </p>
    );
  const video = section ? videos.find((v) => v.id === section || v.slug === section) : undefined;
  if (video) return <Player key={video.id} video={video} locale={locale} onBack={onBack} />;
  return (
    <ul className="education-cards">
      {videos.map((v) => (
        <li key={v.id} className="card">
          <h3>
            <button type="button" className="link-button" onClick={() => onOpen(v.slug)}>
              {v.title}
            </button>
          </h3>
          <p>{v.summary}</p>
        </li>
      ))}
    </ul>
  );
}

/** The video, its subtitles and poster fetched with the session (the plan gates them) as blobs. */
function useBlobUrls(paths: readonly string[]): Record<string, string> | null {
  const { http } = useServices();
  const [urls, setUrls] = useState<Record<string, string> | null>(null);
  const key = paths.join("|");
  useEffect(() => {
    let live = true;
    const made: string[] = [];
    void Promise.all(
      paths.map(async (p) => {
        const url = URL.createObjectURL(await http.download(p));
        made.push(url);
        return [p, url] as const;
      }),
    ).then(
      (pairs) => live && setUrls(Object.fromEntries(pairs)),
      () => live && setUrls({}),
    );
    return () => {
      live = false;
      made.forEach((u) => URL.revokeObjectURL(u));
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the key is the paths
  }, [key, http]);
  return urls;
}

function Player({
  video,
  locale,
  onBack,
}: {
  video: VideoTutorial;
  locale: Locale;
  onBack: () => void;
}) {
  const { t } = useLingui();
  const languageNames = { en: t`English`, es: t`Spanish` } as const;
  const ref = useRef<HTMLVideoElement>(null);
  const urls = useBlobUrls([
    video.video,
    ...video.tracks.map((x) => x.src),
    ...(video.poster ? [video.poster] : []),
  ]);
  const seek = (start: number) => {
    const v = ref.current;
    if (!v) return;
    v.currentTime = start;
    void v.play().catch(() => {});
  };
  const stamp = (s: number) =>
    `${Math.floor(s / 60)}:${String(Math.floor(s % 60)).padStart(2, "0")}`;
  return (
    <article aria-labelledby={`video-${video.id}`}>
      <button type="button" className="link-button" onClick={onBack}>
        <Trans>← All video tutorials</Trans>
      </button>
      <h3 id={`video-${video.id}`}>{video.title}</h3>
      <p>{video.summary}</p>
      {urls === null ? (
        <p role="status">{t`Loading the video`}</p>
      ) : urls[video.video] ? (
        <video
          ref={ref}
          className="education-video"
          controls
          preload="metadata"
          src={urls[video.video]}
          poster={video.poster ? urls[video.poster] : undefined}
          aria-label={video.title}
        >
          {video.tracks.map((track) =>
            urls[track.src] ? (
              <track
                key={track.language}
                kind="subtitles"
                srcLang={track.language}
                label={languageNames[track.language]}
                src={urls[track.src]}
                default={track.language === locale}
              />
            ) : null,
          )}
        </video>
      ) : (
        <p role="alert">
          <Trans>The video could not be loaded.</Trans>
        </p>
      )}
      <h4>
        <Trans>Transcript</Trans>
      </h4>
      <ol className="transcript">
        {video.transcript.map((cue, k) => (
          <li key={k}>
            <button type="button" className="link-button" onClick={() => seek(cue.start)}>
              {stamp(cue.start)}
            </button>{" "}
            {cue.text}
          </li>
        ))}
      </ol>
    </article>
  );
}
