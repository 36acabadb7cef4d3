// @vitest-environment jsdom
// The banana machine's shortest paths played on the screens (tests/app/model-paths/support.ts).
import { afterAll, beforeAll, vi } from "vitest";
import { banana } from "./banana.ts";
import { playOnScreens } from "./support.ts";

// A banana portfolio changes only between 10:00 and 22:00 UTC, by the machine's clock and the
// server's (both this process's): the paths run at noon UTC of the day they run on, whatever the
// hour, the clock moving on from there.
beforeAll(() => {
  const noon = new Date();
  noon.setUTCHours(12, 0, 0, 0);
  vi.useFakeTimers({ toFake: ["Date"], shouldAdvanceTime: true, now: noon });
});
afterAll(() => {
  vi.useRealTimers();
});

playOnScreens(banana);
