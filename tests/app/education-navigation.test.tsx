// @vitest-environment jsdom
// The education section writes its parameters to the URL of the page it is over through the app's
// navigation (src/app/route-follow.ts, `pushSearch`): a tab chosen and the section closed are new
// history entries on the same page, other parameters kept.
import { cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import { afterEach, expect, it } from "vitest";
import { pathFor } from "../../src/app/paths.ts";
import { renderApp } from "../support/render-app.tsx";

afterEach(cleanup);

it("a tab chosen and the section closed change the page's query string, as new history entries", async () => {
  const home = pathFor("index", "en");
  const { router } = await renderApp(`${home}?keep=1&hollypedia=dictionary&level=user`);
  const tabs = await screen.findAllByRole("tab", { hidden: true });
  const other = tabs.find((t) => t.getAttribute("aria-selected") === "false")!;
  const tabId = other.id.split("-tab-").at(-1)!;
  fireEvent.click(other);
  await waitFor(() =>
    expect(new URLSearchParams(router.state.location.search).get("hollypedia")).toBe(tabId),
  );
  expect(router.state.location.pathname).toBe(home);
  expect(router.state.historyAction).toBe("PUSH");
  expect(new URLSearchParams(router.state.location.search).get("keep")).toBe("1");

  fireEvent.click(screen.getByRole("button", { name: "Close", hidden: true }));
  await waitFor(() => expect(router.state.location.search).toBe("?keep=1"));
  expect(router.state.location.pathname).toBe(home);
});
