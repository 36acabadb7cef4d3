// @vitest-environment jsdom
// The optimise machine's shortest paths played on the screens (tests/app/model-paths/support.ts).
import { optimise } from "./optimise.ts";
import { playOnScreens } from "./support.ts";

playOnScreens(optimise);
