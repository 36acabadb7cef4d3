// The education machine's fixtures: what its chart and its model-based paths are drawn with.
import type { MachineEntry } from "./machine-entry.ts";
import { educationMachine } from "./education.machine.ts";

/** The education machine as the charts and the path tests see it: its guards' rules and the events to explore. */
export const educationEntry: MachineEntry = {
  machine: educationMachine,
  title: "Education section (hollypedia / program)",
  guards: {
    isOpen:
      "PRODUCT.md, Education: the section opens over any page when its name (hollypedia in ht, program in tt) is in the query string.",
    isLocked:
      "Section 3, hollypedia permissions: videotutorials needs hollypedia.videoTutorials and education needs hollypedia.courses; the dictionary and case studies are open. The locked tab names the plan that unlocks it.",
    isDictionary:
      "The tab is dictionary, or none was given in ht (default tab: dictionary in one edition, education in the other).",
    isVideoTutorials: "The tab is videotutorials.",
    isCaseStudies: "The tab is casestudies.",
  },
  input: { edition: "ht", access: { signedIn: true, videoTutorials: false, courses: false } },
  pathEvents: [
    {
      type: "url.changed",
      params: { tab: "dictionary", level: "user", section: null, term: "valor-en-riesgo" },
    },
    {
      type: "url.changed",
      params: { tab: "videotutorials", level: "user", section: null, term: null },
    },
    { type: "access.changed", access: { signedIn: true, videoTutorials: true, courses: true } },
    { type: "tab.select", tab: "casestudies" },
    { type: "tab.select", tab: "education" },
    { type: "level.select", level: "pro" },
    { type: "item.open", section: "bonds-in-2022" },
    { type: "term.open", term: "volatility" },
    { type: "item.close" },
    { type: "section.close" },
  ],
};
