// Shared test setup: nothing global is mocked; each test builds what it needs.
export {};
