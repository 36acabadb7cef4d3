// The video tutorials (issue 14): the six recorded tutorials listed, and the player of one — the
// video served with the session, subtitles in the user's language on by default, the transcript in
// that language, and a transcript line that moves the video to its moment — in both languages and
// both editions (tt: a student, whose programme includes the videos).
import { accountPaths, dismissCookieBannerWhenShown, signInAs } from "./accounts-support.ts";
import { expect as baseExpect, test, type Edition, type Locale } from "./fixtures.ts";

const expect = baseExpect.configure({ timeout: 20_000 });

const title = {
  ht: { en: "Hollypedia", es: "Hollypedia" },
  tt: { en: "Programme", es: "Programa" },
} as const;
const banana = { en: "The banana challenge", es: "El banana challenge" } as const;
const firstCue = {
  en: "The banana challenge: pick stocks, beat the monkey.",
  es: "El banana challenge: elige acciones y gana al mono.",
} as const;

const videosPage = (edition: Edition, locale: Locale) =>
  `${accountPaths.home[locale]}?${new URLSearchParams({
    [edition === "tt" ? "program" : "hollypedia"]: "videotutorials",
  })}`;

for (const locale of ["en", "es"] as const) {
  test(`plays a tutorial with subtitles and its transcript (${locale})`, async ({
    page,
    edition,
  }) => {
    test.setTimeout(120_000);
    await dismissCookieBannerWhenShown(page);
    await signInAs(page, edition === "tt" ? "tt@demo.test" : "assets-advanced@demo.test");
    await page.goto(videosPage(edition, locale));
    const section = page.getByRole("dialog", { name: title[edition][locale] });
    await expect(section.locator(".education-cards > li")).toHaveCount(6);
    await section.getByRole("button", { name: banana[locale], exact: true }).click();

    const video = section.locator("video.education-video");
    await expect(video).toBeVisible();
    const track = video.locator("track[default]");
    await expect(track).toHaveAttribute("srclang", locale);
    const duration = await video.evaluate(
      (v: HTMLVideoElement) =>
        new Promise<number>((resolve) => {
          if (v.readyState >= 1) resolve(v.duration);
          else v.addEventListener("loadedmetadata", () => resolve(v.duration), { once: true });
        }),
    );
    expect(duration).toBeGreaterThan(30);

    const transcript = section.locator("ol.transcript > li");
    await expect(transcript.first()).toContainText(firstCue[locale]);
    expect(await transcript.count()).toBeGreaterThanOrEqual(6);
    // A line of the transcript moves the video to its moment (keyboard: it is a button).
    const third = transcript.nth(2).getByRole("button");
    await third.focus();
    await page.keyboard.press("Enter");
    const at = await video.evaluate((v: HTMLVideoElement) => v.currentTime);
    expect(at).toBeGreaterThan(5);
  });
}
