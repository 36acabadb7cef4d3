// @vitest-environment jsdom
// The banana machine's shortest paths played on the screens (tests/app/model-paths/support.ts).
import { banana } from "./banana.ts";
import { playOnScreens } from "./support.ts";

playOnScreens(banana);
