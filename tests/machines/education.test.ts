import { describe, expect, it } from "vitest";
import { createActor } from "xstate";
import { educationMachine, type EducationAccess } from "../../machines/education.machine.ts";
import {
  readSectionParams,
  writeSectionParams,
  type SectionParams,
} from "../../src/contract/education.ts";

const free: EducationAccess = { signedIn: true, videoTutorials: false, courses: false };
const advanced: EducationAccess = { signedIn: true, videoTutorials: true, courses: true };

/** The machine with a fake address bar: pushParams writes it, and the change comes back. */
function start(edition: "ht" | "tt", access: EducationAccess, search = "") {
  let url = search;
  const history: string[] = [url];
  const actor = createActor(
    educationMachine.provide({
      actions: {
        pushParams: (_, { params }) => {
          url = writeSectionParams(url, edition, params);
          history.push(url);
          queueMicrotask(() =>
            actor.send({ type: "url.changed", params: readSectionParams(url, edition) }),
          );
        },
      },
    }),
    { input: { edition, access } },
  ).start();
  actor.send({ type: "url.changed", params: readSectionParams(url, edition) });
  const settle = () => new Promise((r) => setTimeout(r, 0));
  return { actor, settle, url: () => url, history };
}

describe("the section's query parameters", () => {
  it("are hollypedia in ht and program in tt, with the edition's default tab", () => {
    expect(readSectionParams("?hollypedia=", "ht")).toEqual({
      tab: null,
      level: "user",
      section: null,
      term: null,
    });
    expect(readSectionParams("?program=casestudies&level=pro", "tt")).toMatchObject({
      tab: "casestudies",
      level: "pro",
    });
    expect(readSectionParams("?hollypedia=dictionary", "tt")).toBeNull();
    expect(
      readSectionParams("?hollypedia=dictionary&level=user&term=valor-en-riesgo", "ht"),
    ).toEqual({ tab: "dictionary", level: "user", section: null, term: "valor-en-riesgo" });
    // A term without a tab opens the dictionary; junk is ignored.
    expect(readSectionParams("?hollypedia=&term=volatility", "ht")!.tab).toBe("dictionary");
    expect(readSectionParams("?hollypedia=nope&term=<script>", "ht")).toMatchObject({
      tab: null,
      term: null,
    });
  });

  it("are written next to the page's own parameters", () => {
    const params: SectionParams = { tab: null, level: "pro", section: null, term: "volatility" };
    expect(writeSectionParams("?tab=2", "tt", params)).toBe(
      "?tab=2&program=education&level=pro&term=volatility",
    );
    expect(writeSectionParams("?tab=2&program=education&level=pro", "tt", null)).toBe("?tab=2");
  });
});

describe("educationMachine", () => {
  it("stays closed without its parameter and opens from a deep link", () => {
    expect(start("ht", free).actor.getSnapshot().value).toBe("closed");
    const { actor } = start("ht", free, "?hollypedia=dictionary&level=user&term=valor-en-riesgo");
    expect(actor.getSnapshot().value).toEqual({ open: "dictionary" });
    expect(actor.getSnapshot().context.params?.term).toBe("valor-en-riesgo");
  });

  it("opens on the edition's default tab: dictionary in ht, education in tt", () => {
    expect(start("ht", advanced, "?hollypedia=").actor.getSnapshot().value).toEqual({
      open: "dictionary",
    });
    expect(start("tt", advanced, "?program=").actor.getSnapshot().value).toEqual({
      open: "education",
    });
  });

  it("locks videos and courses without the plan's permission, and unlocks them when it comes", () => {
    const { actor } = start("tt", free, "?program=");
    expect(actor.getSnapshot().value).toEqual({ open: "locked" });
    actor.send({ type: "access.changed", access: { ...free, courses: true } });
    expect(actor.getSnapshot().value).toEqual({ open: "education" });
    const videos = start("ht", free, "?hollypedia=videotutorials");
    expect(videos.actor.getSnapshot().value).toEqual({ open: "locked" });
    expect(start("ht", free, "?hollypedia=casestudies").actor.getSnapshot().value).toEqual({
      open: "casestudies",
    });
  });

  it("moves through the URL: tab, level, item, term, back and close", async () => {
    const { actor, settle, url, history } = start("ht", advanced, "?x=1&hollypedia=");
    actor.send({ type: "tab.select", tab: "casestudies" });
    await settle();
    expect(actor.getSnapshot().value).toEqual({ open: "casestudies" });
    expect(url()).toBe("?x=1&hollypedia=casestudies&level=user");
    actor.send({ type: "item.open", section: "bonds-in-2022" });
    actor.send({ type: "level.select", level: "pro" });
    await settle();
    expect(actor.getSnapshot().context.params).toEqual({
      tab: "casestudies",
      level: "pro",
      section: "bonds-in-2022",
      term: null,
    });
    actor.send({ type: "term.open", term: "duration" });
    await settle();
    expect(actor.getSnapshot().value).toEqual({ open: "dictionary" });
    expect(url()).toBe("?x=1&hollypedia=dictionary&level=pro&term=duration");
    // Back: the address bar goes to the previous entry and the machine follows it.
    const previous = history.at(-2)!;
    actor.send({ type: "url.changed", params: readSectionParams(previous, "ht") });
    expect(actor.getSnapshot().value).toEqual({ open: "casestudies" });
    actor.send({ type: "section.close" });
    await settle();
    expect(actor.getSnapshot().value).toBe("closed");
    expect(url()).toBe("?x=1");
  });
});

describe("the section mounted on an address that names it", () => {
  it("starts open at that tab, so a tab chosen before any other event is kept", () => {
    const pushed: (SectionParams | null)[] = [];
    const search = "?keep=1&hollypedia=dictionary&level=user";
    const actor = createActor(
      educationMachine.provide({
        actions: { pushParams: (_, { params }) => void pushed.push(params) },
      }),
      { input: { edition: "ht", access: advanced, params: readSectionParams(search, "ht") } },
    ).start();
    expect(actor.getSnapshot().matches("open")).toBe(true);
    // No url.changed yet: the screen's effect that sends it may come after the person's click.
    actor.send({ type: "tab.select", tab: "videotutorials" });
    expect(pushed).toEqual([expect.objectContaining({ tab: "videotutorials" })]);
  });

  it("starts closed on an address without it", () => {
    const actor = createActor(educationMachine, { input: { edition: "ht", access: free } }).start();
    expect(actor.getSnapshot().matches("closed")).toBe(true);
  });
});
