// @vitest-environment jsdom
// The wizard machine's shortest paths played on the screens (tests/app/model-paths/support.ts).
import { wizard } from "./wizard.ts";
import { playOnScreens } from "./support.ts";

playOnScreens(wizard);
