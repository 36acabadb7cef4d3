// @vitest-environment jsdom
// The subscription machine's shortest paths played on the screens (tests/app/model-paths/support.ts).
import { subscription } from "./subscription.ts";
import { playOnScreens } from "./support.ts";

playOnScreens(subscription);
