// Shared test setup: nothing global is mocked; each test builds what it needs.
//
// Screens in jsdom load their lazy modules on first use: on a loaded 2-core CI machine that can
// take longer than Testing Library's default 1 s for `findBy…` and `waitFor`. The waits are longer;
// what they wait for is unchanged (a screen that never shows still fails, only later).
if (typeof document !== "undefined") {
  const { configure } = await import("@testing-library/react");
  configure({ asyncUtilTimeout: 10_000 });
}
