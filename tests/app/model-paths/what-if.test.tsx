// @vitest-environment jsdom
// The whatIf machine's shortest paths played on the screens (tests/app/model-paths/support.ts).
import { whatIf } from "./what-if.ts";
import { playOnScreens } from "./support.ts";

playOnScreens(whatIf);
