import { assign, setup } from "xstate";
import type { Edition } from "../src/contract/common.ts";
import {
  defaultTabOf,
  tabPermission,
  type ContentLevel,
  type EducationTab,
  type SectionParams,
} from "../src/contract/education.ts";

/** What the user may open: the plan's hollypedia permissions for the current product. */
export interface EducationAccess {
  readonly signedIn: boolean;
  readonly videoTutorials: boolean;
  readonly courses: boolean;
}

export interface EducationContext {
  readonly edition: Edition;
  /** The section's parameters as the URL has them; null while the section is closed. */
  readonly params: SectionParams | null;
  readonly access: EducationAccess;
}

export type EducationEvent =
  | { type: "url.changed"; params: SectionParams | null }
  | { type: "access.changed"; access: EducationAccess }
  | { type: "tab.select"; tab: EducationTab }
  | { type: "level.select"; level: ContentLevel }
  | { type: "term.open"; term: string }
  | { type: "item.open"; section: string }
  | { type: "item.close" }
  | { type: "section.close" };

/** The tab shown: the URL's, or the edition's default (dictionary in ht, education in tt). */
export const shownTab = (c: Pick<EducationContext, "edition" | "params">): EducationTab =>
  c.params?.tab ?? defaultTabOf(c.edition);

const current = (c: EducationContext): SectionParams =>
  c.params ?? { tab: null, level: "user", section: null, term: null };

/**
 * The education section's navigation (PRODUCT.md, "Education"; docs/education.md). The URL is the
 * one source of truth: the section opens over any page from its query parameters, and every move
 * inside it (tab, level, item, term, close) takes its new parameters at once and writes them to
 * the URL with `pushParams`; a URL change (deep link, back, forward) comes in as `url.changed`.
 * Video tutorials and courses are shown only with the plan's permission; otherwise the tab says
 * which plan unlocks it (the server refuses them too).
 */
export const educationMachine = setup({
  types: {
    context: {} as EducationContext,
    events: {} as EducationEvent,
    input: {} as {
      edition: Edition;
      access: EducationAccess;
      /** The section's parameters in the URL the section was mounted on. */
      params?: SectionParams | null;
    },
  },
  actions: {
    /** Writes the section's parameters (null: closes it) to the URL as a new history entry. */
    pushParams: (_, _params: { params: SectionParams | null }) => {
      throw new Error("pushParams must be provided");
    },
  },
  guards: {
    isOpen: (_, params: { params: SectionParams | null }) => params.params !== null,
    isLocked: ({ context }) => {
      const needs = tabPermission[shownTab(context)];
      return needs !== null && !context.access[needs];
    },
    isDictionary: ({ context }) => shownTab(context) === "dictionary",
    isVideoTutorials: ({ context }) => shownTab(context) === "videotutorials",
    isCaseStudies: ({ context }) => shownTab(context) === "casestudies",
  },
}).createMachine({
  id: "education",
  description:
    "The education section (hollypedia in ht, program in tt) over any page, driven by its query parameters.",
  context: ({ input }) => ({
    edition: input.edition,
    params: input.params ?? null,
    access: input.access,
  }),
  // Decided at once from the URL it was mounted on: the section is never shown closed first (a
  // tab chosen in that moment would be lost).
  initial: "routing",
  on: {
    "access.changed": {
      target: ".routing",
      actions: assign({ access: ({ event }) => event.access }),
    },
  },
  states: {
    routing: {
      description: "Decides between closed, a locked tab and the tab the parameters name.",
      always: [
        {
          guard: { type: "isOpen", params: ({ context }) => ({ params: context.params }) },
          target: "open",
        },
        { target: "closed" },
      ],
    },
    closed: {
      description: "The section's name is not in the URL: only the page shows.",
      on: {
        "url.changed": {
          target: "routing",
          actions: assign({ params: ({ event }) => event.params }),
        },
      },
    },
    open: {
      description:
        "A dialog over the page, focus inside it; Escape or close removes the parameters.",
      initial: "deciding",
      on: {
        "url.changed": {
          target: "routing",
          actions: assign({ params: ({ event }) => event.params }),
        },
        "tab.select": {
          target: "#education.routing",
          actions: [
            assign({
              params: ({ context, event }) => ({
                ...current(context),
                tab: event.tab,
                section: null,
                term: null,
              }),
            }),
            { type: "pushParams", params: ({ context }) => ({ params: context.params }) },
          ],
        },
        "level.select": {
          target: "#education.routing",
          actions: [
            assign({
              params: ({ context, event }) => ({
                ...current(context),
                tab: shownTab(context),
                level: event.level,
              }),
            }),
            { type: "pushParams", params: ({ context }) => ({ params: context.params }) },
          ],
        },
        "term.open": {
          target: "#education.routing",
          actions: [
            assign({
              params: ({ context, event }) => ({
                ...current(context),
                tab: "dictionary" as const,
                section: null,
                term: event.term,
              }),
            }),
            { type: "pushParams", params: ({ context }) => ({ params: context.params }) },
          ],
        },
        "item.open": {
          target: "#education.routing",
          actions: [
            assign({
              params: ({ context, event }) => ({
                ...current(context),
                tab: shownTab(context),
                section: event.section,
                term: null,
              }),
            }),
            { type: "pushParams", params: ({ context }) => ({ params: context.params }) },
          ],
        },
        "item.close": {
          target: "#education.routing",
          actions: [
            assign({
              params: ({ context }) => ({
                ...current(context),
                tab: shownTab(context),
                section: null,
                term: null,
              }),
            }),
            { type: "pushParams", params: ({ context }) => ({ params: context.params }) },
          ],
        },
        "section.close": {
          target: "#education.routing",
          actions: [
            assign({ params: null }),
            { type: "pushParams", params: ({ context }) => ({ params: context.params }) },
          ],
        },
      },
      states: {
        deciding: {
          always: [
            { guard: "isLocked", target: "locked" },
            { guard: "isDictionary", target: "dictionary" },
            { guard: "isVideoTutorials", target: "videotutorials" },
            { guard: "isCaseStudies", target: "casestudies" },
            { target: "education" },
          ],
        },
        dictionary: { description: "Search and read the entries; `term` opens one." },
        videotutorials: { description: "The video tutorials; `section` opens one in the player." },
        casestudies: { description: "The case studies; `section` opens one with its figures." },
        education: { description: "The courses; `section` opens a course or one of its sections." },
        locked: {
          description:
            "The plan does not include this tab (hollypedia.videoTutorials or hollypedia.courses): it names the plan that does.",
        },
      },
    },
  },
});
