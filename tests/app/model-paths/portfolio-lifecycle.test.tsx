// @vitest-environment jsdom
// The portfolioLifecycle machine's shortest paths played on the screens (tests/app/model-paths/support.ts).
import { portfolioLifecycle } from "./portfolio-lifecycle.ts";
import { playOnScreens } from "./support.ts";

playOnScreens(portfolioLifecycle);
