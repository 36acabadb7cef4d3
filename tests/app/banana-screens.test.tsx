// @vitest-environment jsdom
// The banana account screens' parts with a chosen clock and data: the editing window's two
// branches and its change at 10:00 and 22:00 UTC, the times in the user's zone, the monkeys'
// distribution bars, the ranking's own rows (marked in words, not only by colour) and its links.
import { I18nProvider } from "@lingui/react";
import { cleanup, render, screen, within } from "@testing-library/react";
import { MemoryRouter } from "react-router-dom";
import { afterEach, describe, expect, it } from "vitest";
import { activateLocale, i18n } from "../../src/app/i18n.ts";
import type { BananaRanking, EditWindow } from "../../src/contract/banana.ts";
import type { Locale } from "../../src/contract/common.ts";
import { quantileBars } from "../../src/features/banana/banana-charts.tsx";
import { timeLeft } from "../../src/features/banana/banana-format.ts";
import { currentWindow, EditWindowNotice } from "../../src/features/banana/edit-window.tsx";
import { RankingTable, rankingRowLink } from "../../src/features/banana/ranking-table.tsx";

afterEach(cleanup);

async function show(ui: React.ReactNode, locale: Locale) {
  await activateLocale(locale);
  return render(
    <I18nProvider i18n={i18n}>
      <MemoryRouter>{ui}</MemoryRouter>
    </I18nProvider>,
  );
}

describe("the editing window", () => {
  const server = (now: string): EditWindow => {
    const d = new Date(now);
    const h = d.getUTCHours();
    const open = h >= 10 && h < 22;
    const day = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
    const changes = h < 10 ? day + 10 * 3600e3 : h < 22 ? day + 22 * 3600e3 : day + 34 * 3600e3;
    return { open, changesAt: new Date(changes).toISOString() };
  };

  it("is open from 10:00 UTC and says until when, in the user's zone, and the time left", async () => {
    const now = new Date("2026-11-24T20:40:00Z");
    await show(
      <EditWindowNotice
        window={server(now.toISOString())}
        now={now}
        locale="en"
        timeZone="Europe/Madrid"
      />,
      "en",
    );
    const notice = screen.getByTestId("edit-window");
    expect(notice.dataset.open).toBe("true");
    // 22:00 UTC is 23:00 in Madrid in November.
    expect(notice.textContent).toMatch(
      /Editing is open until Tue, 11:00 PM GMT\+1 \(1 h 20 min left\)/,
    );
  });

  it("is closed before 10:00 and from 22:00 UTC and says when it opens, in Spanish too", async () => {
    const now = new Date("2026-11-24T22:00:00Z");
    await show(
      <EditWindowNotice
        window={server(now.toISOString())}
        now={now}
        locale="es"
        timeZone="America/New_York"
      />,
      "es",
    );
    const notice = screen.getByTestId("edit-window");
    expect(notice.dataset.open).toBe("false");
    // 10:00 UTC on Wednesday is 05:00 in New York.
    expect(notice.textContent).toContain("mié, 05:00 GMT-5");
    expect(notice.textContent).toContain("12 h");
    expect(notice.textContent).not.toContain("abierta hasta");
  });

  it("follows the rule on the page's clock once the server's moment has passed", () => {
    const answered = server("2026-11-24T21:59:00Z");
    expect(answered.open).toBe(true);
    expect(currentWindow(answered, new Date("2026-11-24T21:59:59Z"))).toBe(answered);
    const after = currentWindow(answered, new Date("2026-11-24T22:00:00Z"));
    expect(after).toEqual({ open: false, changesAt: "2026-11-25T10:00:00.000Z" });
    const morning = currentWindow(server("2026-11-25T09:59:00Z"), new Date("2026-11-25T10:00:00Z"));
    expect(morning).toEqual({ open: true, changesAt: "2026-11-25T22:00:00.000Z" });
  });

  it("counts the time left in hours and minutes", async () => {
    await activateLocale("en");
    const now = new Date("2026-11-24T09:00:00Z");
    expect(timeLeft("2026-11-24T10:00:00Z", now, i18n)).toBe("1 h");
    expect(timeLeft("2026-11-24T09:45:00Z", now, i18n)).toBe("45 min");
    expect(timeLeft("2026-11-24T11:30:00Z", now, i18n)).toBe("2 h 30 min");
  });
});

describe("the monkeys' distribution", () => {
  it("draws 20 bars of 5% each whose areas add up to the whole", () => {
    const quantiles = Array.from({ length: 21 }, (_, i) => -0.1 + i * 0.01 + (i * i) / 4000);
    const bars = quantileBars(quantiles);
    expect(bars).toHaveLength(20);
    const area = bars.reduce((s, b) => s + b.density * (b.to - b.from), 0);
    expect(area).toBeCloseTo(1, 12);
    // Denser where the quantiles are closer.
    expect(bars[0]!.density).toBeGreaterThan(bars[19]!.density);
    expect(bars.every((b) => b.share === 0.05)).toBe(true);
  });

  it("gives equal quantiles a visible width instead of an infinite height", () => {
    const bars = quantileBars([0, 0, 0.1]);
    expect(Number.isFinite(bars[0]!.density)).toBe(true);
    expect(bars[0]!.density).toBeCloseTo(0.5 / (0.1 / 200), 6);
  });
});

describe("the ranking", () => {
  const ranking: BananaRanking = {
    region: "eu",
    page: 1,
    pageSize: 20,
    total: 3,
    date: "2026-11-24",
    rows: [
      {
        rank: 1,
        alias: "Ada",
        name: "Tech",
        return: 0.052,
        annualisedReturn: null,
        ageDays: 3,
        own: false,
        portfolioId: 91,
      },
      {
        rank: 2,
        alias: null,
        name: "Mine",
        return: 0.01,
        annualisedReturn: 0.2,
        ageDays: 40,
        own: true,
        portfolioId: 7,
      },
      {
        rank: 3,
        alias: "Bob",
        name: "Banks",
        return: -0.02,
        annualisedReturn: null,
        ageDays: 2,
        own: false,
        portfolioId: null,
      },
    ],
    ownRanks: [{ portfolioId: 7, rank: 2 }],
  };

  it("marks the user's own rows in words and highlights them; aliases or anonymous", async () => {
    await show(<RankingTable ranking={ranking} locale="en" communityPortfolio={false} />, "en");
    const rows = screen.getAllByRole("row").slice(1);
    expect(rows).toHaveLength(3);
    expect(rows[1]!.className).toContain("own-row");
    expect(rows[1]!.getAttribute("aria-current")).toBe("true");
    expect(within(rows[1]!).getByText("you")).toBeTruthy();
    expect(within(rows[1]!).getByText("anonymous")).toBeTruthy();
    expect(within(rows[0]!).queryByText("you")).toBeNull();
    expect(within(rows[0]!).getByText("Ada")).toBeTruthy();
    expect(rows[0]!.textContent).toContain("+5.20%");
    expect(rows[2]!.textContent).toContain("-2.00%");
    // Own rows link to the portfolio's page; others only with communityPortfolio.
    expect(within(rows[1]!).getByRole("link", { name: "Mine" }).getAttribute("href")).toBe(
      "/en/my-account/banana-portfolios/portfolio-7",
    );
    expect(within(rows[0]!).queryByRole("link")).toBeNull();
  });

  it("links other members' rows to the community view with communityPortfolio", async () => {
    await show(<RankingTable ranking={ranking} locale="es" communityPortfolio />, "es");
    const rows = screen.getAllByRole("row").slice(1);
    expect(within(rows[0]!).getByRole("link", { name: "Tech" }).getAttribute("href")).toBe(
      "/es/mi-cuenta/carteras-banana/cartera-91?community=1",
    );
    // A row without an id (the server sends none) has no link.
    expect(within(rows[2]!).queryByRole("link")).toBeNull();
    expect(rankingRowLink(ranking.rows[1]!, "es", true)).toBe(
      "/es/mi-cuenta/carteras-banana/cartera-7",
    );
  });
});
