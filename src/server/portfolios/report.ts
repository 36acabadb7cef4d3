/**
 * The full report (issue 27, "A report worth printing"; PRODUCT.md, "Portfolio history and
 * report"): the multi-page PDF of a plan with `var`. The summary (exports.ts), then the risk, the
 * growth of the amount invested beside the benchmark, the calendar years, the rolling 12-month
 * return and volatility, the falls from a high, the correlation heat map and the factor
 * regression, each with its method and the date of its data. A section the plan lacks is left out
 * with a line naming the plan that unlocks it; one the history is too short for says so.
 */
import type { FullAnalysis } from "../../contract/analytics.ts";
import type { Product } from "../../contract/common.ts";
import { brandNames, tierName } from "../../contract/names.ts";
import {
  allowedSections,
  PAST_PERFORMANCE_SECTIONS,
  pastPerformancePermissions,
  type PastPerformanceSection,
} from "../../contract/past-performance.ts";
import {
  hasPermission,
  unlockingTier,
  type ProductPermissions,
  type Tier,
} from "../../contract/permissions.ts";
import type { Portfolio } from "../../contract/portfolios.ts";
import type { PastPerformanceAnswer } from "../analytics/past-performance.ts";
import { redactAnalysis } from "../analytics/redact.ts";
import {
  BENCHMARK,
  INK,
  lineChart,
  heatMap,
  MUTED,
  PORTFOLIO,
  PORTFOLIO_AREA,
  stepDigits,
  wrap,
  type ChartSeries,
} from "./charts.ts";
import { BAND, BAR, BOTTOM, MARGIN, RULE, writeSummary, type SummaryOptions } from "./exports.ts";
import {
  exportLabels,
  fill,
  formatDay,
  formatNumber,
  reportLabels,
  seriesNameIn,
} from "./labels.ts";
import { A4, createPdf, fitText, type Page } from "./pdf.ts";

export interface ReportOptions extends SummaryOptions {
  readonly product: Product;
  readonly permissions: ProductPermissions;
}

const WIDTH = A4.width - 2 * MARGIN;
const CHART_HEIGHT = 190;

/** The lowest plan of the product that shows a section (every permission it needs). */
export function sectionTier(product: Product, section: PastPerformanceSection): Tier | null {
  const order: Tier[] = ["free", "standard", "advanced"];
  let worst = -1;
  for (const path of pastPerformancePermissions[section]) {
    const tier = unlockingTier(product, path);
    if (tier === null) return null;
    worst = Math.max(worst, order.indexOf(tier));
  }
  return order[worst] ?? null;
}

export function portfolioReport(
  portfolio: Portfolio,
  analysis: FullAnalysis,
  past: PastPerformanceAnswer,
  options: ReportOptions,
): Uint8Array {
  const { lang } = options;
  const locale = lang ?? "en";
  const l = exportLabels(lang);
  const r = reportLabels(lang);
  const pdf = createPdf({
    title: `${l.report}: ${portfolio.name}`,
    author: brandNames[options.edition],
  });
  const pages = writeSummary(pdf, portfolio, analysis, options);

  const day = (iso: string) => formatDay(iso, lang);
  const pct = (v: number, digits = 2) => `${formatNumber(v * 100, lang, digits)} %`;
  const money = (v: number) => `${formatNumber(v, lang)} ${portfolio.currency}`;
  const amountTick = (v: number, step: number) => formatNumber(v, lang, stepDigits(step));
  const percentTick = (v: number, step = 0.01) =>
    `${formatNumber(v * 100, lang, stepDigits(step * 100))} %`;

  let page!: Page;
  let y = 0;
  const newPage = () => {
    page = pdf.addPage();
    pages.push(page);
    y = A4.height - MARGIN;
  };
  /** A new page unless `height` points fit above the footer. */
  const need = (height: number) => {
    if (y - height < BOTTOM) newPage();
  };
  const heading = (text: string) => {
    need(40);
    page.text(MARGIN, y, text, { size: 14, bold: true, color: INK });
    y -= 20;
  };
  const subheading = (text: string) => {
    need(30);
    page.text(MARGIN, y, text, { size: 11, bold: true, color: INK });
    y -= 15;
  };
  const paragraph = (text: string, size = 8, color = MUTED) => {
    for (const line of wrap(text, WIDTH, size)) {
      need(size + 4);
      page.text(MARGIN, y, line, { size, color });
      y -= size + 3;
    }
  };
  /** The figure's method, its window and the date of its data, under its heading. */
  const methodLine = (
    method: string,
    from: string,
    to: string,
    observations: number,
    dataDate: string,
  ) => {
    paragraph(
      `${r.method}: ${method} · ${fill(r.windowText, { from: day(from), to: day(to), n: observations })} · ${fill(r.dataTo, { date: day(dataDate) })}`,
    );
    y -= 6;
  };
  const keyValues = (rows: readonly (readonly [string, string])[], valueX = MARGIN + 200) => {
    for (const [label, value] of rows) {
      need(14);
      page.text(MARGIN, y, label, { size: 9, color: MUTED });
      page.text(valueX, y, value, { size: 9, color: INK });
      y -= 13;
    }
  };
  /** A table: header in bold grey, rows banded, columns right-aligned but the first. */
  const table = (
    columns: readonly { x: number; label: string; left?: boolean }[],
    rows: readonly (readonly string[])[],
  ) => {
    const alignOf = (k: number) => (k === 0 || columns[k]!.left ? "left" : "right");
    need(30);
    const head = () => {
      columns.forEach((c, k) =>
        page.text(c.x, y, c.label, { size: 8, bold: true, color: MUTED, align: alignOf(k) }),
      );
      y -= 5;
      page.line(MARGIN, y, A4.width - MARGIN, y, RULE);
      y -= 11;
    };
    head();
    rows.forEach((row, i) => {
      if (y < BOTTOM + 10) {
        newPage();
        head();
      }
      if (i % 2 === 1) page.rect(MARGIN, y - 4, WIDTH, 13, BAND);
      row.forEach((cell, k) =>
        page.text(columns[k]!.x, y, cell, { size: 9, color: INK, align: alignOf(k) }),
      );
      y -= 13;
    });
    y -= 8;
  };
  const chart = (
    series: ChartSeries[],
    dates: readonly string[],
    format: (v: number, step: number) => string,
    zero = false,
  ) => {
    need(CHART_HEIGHT + 10);
    lineChart(
      page,
      { x: MARGIN, y: y - CHART_HEIGHT, width: WIDTH, height: CHART_HEIGHT },
      dates,
      series,
      {
        format,
        zero,
        monthLabel: (d) =>
          lang === "es" ? `${d.slice(5, 7)}/${d.slice(2, 4)}` : `${d.slice(5, 7)}/${d.slice(2, 4)}`,
      },
    );
    y -= CHART_HEIGHT + 14;
  };

  const allowed = new Set(allowedSections(options.permissions));
  /** A section the plan lacks: its title and the plan that shows it. */
  const locked = (section: PastPerformanceSection) => {
    const tier = sectionTier(options.product, section);
    subheading(r.sections[section]);
    paragraph(
      tier ? fill(r.lockedLine, { plan: tierName(locale, tier) }) : r.notInPlan,
      9,
      [0.6, 0.35, 0.1],
    );
    y -= 10;
  };
  /** A section the plan shows but the data cannot: why. */
  const unavailable = (section: PastPerformanceSection) => {
    const reason =
      past.unavailable.find((u) => u.section === section)?.reason ?? "not-enough-history";
    subheading(r.sections[section]);
    paragraph(r.unavailable[reason] ?? reason, 9);
    y -= 10;
  };
  /** Whether a section has figures in this report (it starts on a new page then). */
  const shows = (section: PastPerformanceSection) => allowed.has(section) && past[section] !== null;
  const benchmarkName = past.benchmark
    ? `${r.benchmark}: ${seriesNameIn(past.benchmark.name, lang)}`
    : null;

  // Risk: the VaR figures of the analysis, the volatility, what the plan shows of the rest, and
  // the historical scenarios as a histogram with the VaR marked.
  const a = redactAnalysis(analysis, options.permissions);
  newPage();
  page.text(MARGIN, y - 8, `${r.fullReport} · ${portfolio.name}`, { size: 9, color: MUTED });
  y -= 30;
  heading(r.sections.risk);
  const v = analysis.var;
  const w = analysis.window;
  methodLine(
    fill(r.methods.risk!, {
      confidence: formatNumber(w.confidence * 100, lang, 0),
      horizon: w.horizonDays,
      covariance: r.covariances[w.covariance] ?? w.covariance,
      scaling: r.scalings[v.historical.scaling ?? "overlapping"]!,
    }) +
      (v.monteCarlo?.scenarios
        ? `; ${r.monteCarlo}: ${formatNumber(v.monteCarlo.scenarios, lang, 0)} ${r.scenarios}`
        : ""),
    w.from,
    w.to,
    w.observations,
    w.to,
  );
  const varRows = [
    [l.parametric, v.parametric],
    [l.historical, v.historical],
    ...(v.monteCarlo ? ([[r.monteCarlo, v.monteCarlo]] as const) : []),
  ] as const;
  table(
    [
      { x: MARGIN, label: r.varMethod },
      { x: MARGIN + 210, label: `${r.var} %` },
      { x: MARGIN + 290, label: `${r.var} (${portfolio.currency})` },
      { x: MARGIN + 380, label: `${r.cvar} %` },
      { x: MARGIN + WIDTH, label: `${r.cvar} (${portfolio.currency})` },
    ],
    varRows.map(([name, f]) => [
      name,
      pct(f.var),
      formatNumber(f.varAmount, lang),
      pct(f.cvar),
      formatNumber(f.cvarAmount, lang),
    ]),
  );
  const extra: [string, string][] = [
    [l.volatility, pct(analysis.volatility.annual)],
    [r.dailyVolatility, pct(analysis.volatility.daily, 3)],
    [r.horizonVolatility, pct(analysis.volatility.horizon)],
  ];
  if (a.diversification) {
    extra.push([r.standAloneSum, pct(a.diversification.standAloneSum)]);
    if (a.diversification.reduction !== null)
      extra.push([r.diversificationBenefit, pct(a.diversification.reduction)]);
  }
  if (a.expectedReturn) extra.push([r.expectedReturn, pct(a.expectedReturn.portfolio)]);
  if (a.requiredReturn) extra.push([r.requiredReturn, pct(a.requiredReturn.portfolio)]);
  keyValues(extra);
  y -= 8;
  if (analysis.distribution.length > 1) {
    subheading(r.lossDistribution);
    need(130);
    histogram(page, MARGIN, y - 110, WIDTH, 110, analysis.distribution, -v.historical.var, (x) =>
      percentTick(x, 0.001),
    );
    y -= 128;
  }
  const shares = a.assets.filter((x) => x.percentage !== null);
  if (shares.length > 0) {
    subheading(r.riskContributions);
    const largest = Math.max(...shares.map((x) => Math.abs(x.percentage!)), 1e-9);
    const barLeft = MARGIN + 150;
    const barWidth = WIDTH - 150 - 60;
    for (const x of [...shares].sort((p, q) => q.percentage! - p.percentage!)) {
      need(10);
      page.text(MARGIN, y, fitText(`${x.symbol} · ${x.name}`, 145, 7), { size: 7, color: INK });
      page.rect(
        barLeft,
        y - 0.5,
        Math.max(0.5, (Math.abs(x.percentage!) / largest) * barWidth),
        6,
        BAR,
      );
      page.text(MARGIN + WIDTH, y, `${formatNumber(x.percentage!, lang, 1)} %`, {
        size: 7,
        color: INK,
        align: "right",
      });
      y -= 9.5;
    }
  }

  const dates = past.dates;
  // Growth of the amount invested over the whole common history, beside the benchmark.
  if (shows("growth")) newPage();
  if (!allowed.has("growth")) locked("growth");
  else if (!past.growth) unavailable("growth");
  else {
    const g = past.growth;
    heading(r.sections.growth);
    methodLine(r.methods[g.method]!, g.from, g.to, g.observations, g.dataDate);
    const on = dates.slice(g.full.start);
    chart(
      [
        { values: g.full.portfolio, label: r.portfolio, color: PORTFOLIO, width: 1.2 },
        ...(g.full.benchmark && benchmarkName
          ? [{ values: g.full.benchmark, label: benchmarkName, color: BENCHMARK, width: 0.9 }]
          : []),
      ],
      on,
      amountTick,
    );
    const last = g.full.portfolio.at(-1)!;
    const benchLast = g.full.benchmark?.at(-1) ?? null;
    keyValues([
      [fill(r.growthFrom, { amount: money(g.full.portfolio[0]!) }), money(last)],
      ...(benchLast !== null && benchmarkName
        ? ([[benchmarkName, money(benchLast)]] as const)
        : []),
    ]);
    y -= 6;
  }

  // Calendar years.
  if (!allowed.has("calendarYears")) locked("calendarYears");
  else if (!past.calendarYears) unavailable("calendarYears");
  else {
    const c = past.calendarYears;
    heading(r.sections.calendarYears);
    methodLine(r.methods[c.method]!, c.from, c.to, c.observations, c.dataDate);
    const pctOrDash = (x: number | null) => (x === null ? "–" : pct(x));
    table(
      [
        { x: MARGIN, label: r.year },
        { x: MARGIN + 200, label: r.portfolio },
        { x: MARGIN + 320, label: r.benchmark },
        { x: MARGIN + WIDTH, label: r.difference },
      ],
      c.years.map((row) => [
        `${row.year}${row.partial ? " *" : ""}`,
        pct(row.portfolio),
        pctOrDash(row.benchmark),
        pctOrDash(row.difference),
      ]),
    );
    if (c.years.some((row) => row.partial)) paragraph(r.partialYear);
  }

  // Rolling 12-month return and volatility.
  if (shows("rolling")) newPage();
  if (!allowed.has("rolling")) locked("rolling");
  else if (!past.rolling || past.rolling.portfolioReturn.length === 0) unavailable("rolling");
  else {
    const ro = past.rolling;
    heading(r.sections.rolling);
    methodLine(
      fill(r.methods[ro.method]!, { days: ro.windowDays }),
      ro.from,
      ro.to,
      ro.observations,
      ro.dataDate,
    );
    const on = dates.slice(ro.start, ro.start + ro.portfolioReturn.length);
    const withBench = (
      p: readonly number[],
      b: readonly (number | null)[] | null,
    ): ChartSeries[] => [
      { values: p, label: r.portfolio, color: PORTFOLIO, width: 1.1 },
      ...(b && benchmarkName
        ? [{ values: b, label: benchmarkName, color: BENCHMARK, width: 0.9 }]
        : []),
    ];
    subheading(r.rollingReturn);
    chart(withBench(ro.portfolioReturn, ro.benchmarkReturn), on, percentTick, true);
    subheading(r.rollingVolatility);
    chart(withBench(ro.portfolioVolatility, ro.benchmarkVolatility), on, percentTick, true);
  }

  // Falls from a high: the underwater chart and the five largest falls of each series.
  if (shows("drawdowns")) newPage();
  if (!allowed.has("drawdowns")) locked("drawdowns");
  else if (!past.drawdowns) unavailable("drawdowns");
  else {
    const d = past.drawdowns;
    heading(r.sections.drawdowns);
    methodLine(r.methods[d.method]!, d.from, d.to, d.observations, d.dataDate);
    subheading(r.underwater);
    chart(
      [
        {
          values: d.portfolio.underwater,
          label: r.portfolio,
          color: PORTFOLIO,
          width: 0.9,
          area: PORTFOLIO_AREA,
        },
        ...(d.benchmark && benchmarkName
          ? [
              {
                values: d.benchmark.underwater,
                label: benchmarkName,
                color: BENCHMARK,
                width: 0.8,
                dash: [3, 2],
              },
            ]
          : []),
      ],
      dates,
      percentTick,
      true,
    );
    const falls = (name: string, s: typeof d.portfolio) => {
      subheading(`${r.worstFalls}: ${name} (${r.maxDrawdown} ${pct(-s.maxDrawdown)})`);
      table(
        [
          { x: MARGIN, label: r.start },
          { x: MARGIN + 130, label: r.depth },
          { x: MARGIN + 220, label: r.trough },
          { x: MARGIN + 310, label: r.recovery },
          { x: MARGIN + WIDTH, label: r.days },
        ],
        s.worst.map((f) => [
          day(f.start),
          pct(-f.depth),
          day(f.trough),
          f.recovery ? day(f.recovery) : r.notRecovered,
          formatNumber(f.length, lang, 0),
        ]),
      );
    };
    falls(r.portfolio, d.portfolio);
    if (d.benchmark && past.benchmark) falls(seriesNameIn(past.benchmark.name, lang), d.benchmark);
  }

  // Correlation: the heat map in the clustering's order, and each holding's average.
  if (shows("correlation")) newPage();
  if (!allowed.has("correlation")) locked("correlation");
  else if (!past.correlation) unavailable("correlation");
  else {
    const c = past.correlation;
    heading(r.sections.correlation);
    methodLine(r.methods[c.method]!, c.from, c.to, c.observations, c.dataDate);
    need(Math.min(WIDTH, 26 * c.assets.length) + 40);
    y = heatMap(
      page,
      MARGIN,
      y,
      WIDTH,
      c.assets.map((x) => x.symbol),
      c.matrix,
      (x) => formatNumber(x, lang, 2),
    );
    y -= 16;
    subheading(r.averageCorrelation);
    table(
      [
        { x: MARGIN, label: l.symbol },
        { x: MARGIN + 110, label: l.name, left: true },
        { x: MARGIN + WIDTH, label: r.averageCorrelation },
      ],
      c.assets.map((x, i) => [
        `${i + 1}. ${x.symbol}`,
        fitText(x.constant ? `${x.name} (${r.constant})` : x.name, 270, 9),
        x.averageCorrelation === null ? "–" : formatNumber(x.averageCorrelation, lang, 2),
      ]),
    );
  }

  // Factor regression.
  if (!allowed.has("regression")) locked("regression");
  else if (!past.regression) unavailable("regression");
  else {
    const g = past.regression;
    heading(r.sections.regression);
    methodLine(
      fill(r.methods[g.method]!, { days: g.periodDays }),
      g.from,
      g.to,
      g.observations,
      g.dataDate,
    );
    const num = (x: number, digits = 4) => formatNumber(x, lang, digits);
    const t = (x: number | null) => (x === null ? "–" : num(x, 2));
    table(
      [
        { x: MARGIN, label: r.coefficient },
        { x: MARGIN + 260, label: r.estimate },
        { x: MARGIN + 360, label: r.standardError },
        { x: MARGIN + WIDTH, label: r.tStatistic },
      ],
      [
        [
          r.alphaPerPeriod,
          pct(g.alpha.estimate, 3),
          pct(g.alpha.standardError, 3),
          t(g.alpha.tStatistic),
        ],
        [
          r.alphaAnnualised,
          pct(g.alphaAnnualised.estimate),
          pct(g.alphaAnnualised.standardError),
          t(g.alphaAnnualised.tStatistic),
        ],
        ...g.factors.map((f) => [
          `${r.factors[f.factor] ?? f.factor} (${f.series})`,
          num(f.beta.estimate),
          num(f.beta.standardError),
          t(f.beta.tStatistic),
        ]),
      ],
    );
    keyValues([
      [r.rSquared, num(g.rSquared, 3)],
      [r.adjustedRSquared, num(g.adjustedRSquared, 3)],
      [r.residualStandardError, pct(g.residualStandardError, 3)],
      [r.periods, formatNumber(g.periods, lang, 0)],
      [r.degreesOfFreedom, formatNumber(g.degreesOfFreedom, lang, 0)],
      ...(g.excluded.length > 0
        ? ([[r.excluded, g.excluded.map((f) => r.factors[f] ?? f).join(", ")]] as const)
        : []),
    ]);
  }

  pages.forEach((p, i) => {
    p.line(MARGIN, 44, A4.width - MARGIN, 44, RULE);
    p.text(MARGIN, 30, fitText(`${brandNames[options.edition]} · ${portfolio.name}`, 300, 8), {
      size: 8,
      color: MUTED,
    });
    p.text(A4.width - MARGIN, 30, fill(r.pageOf, { n: i + 1, total: pages.length }), {
      size: 8,
      color: MUTED,
      align: "right",
    });
  });
  return pdf.bytes();
}

/** The horizon returns as a histogram (about 40 bins) with the VaR's return as a dashed line. */
function histogram(
  page: Page,
  x: number,
  y: number,
  width: number,
  height: number,
  values: readonly number[],
  marker: number,
  format: (v: number) => string,
): void {
  let lo = Math.min(...values, marker);
  let hi = Math.max(...values, marker);
  if (hi - lo < 1e-12) [lo, hi] = [lo - 0.01, hi + 0.01];
  const bins = 40;
  const counts = new Array<number>(bins).fill(0);
  for (const v of values) counts[Math.min(bins - 1, Math.floor(((v - lo) / (hi - lo)) * bins))]!++;
  const most = Math.max(...counts, 1);
  const left = x + 52;
  const plotWidth = width - 52;
  const bottom = y + 14;
  const plotHeight = height - 14;
  const bin = plotWidth / bins;
  counts.forEach((c, k) => {
    if (c > 0) page.rect(left + k * bin + 0.4, bottom, bin - 0.8, (c / most) * plotHeight, BAR);
  });
  page.line(left, bottom, left + plotWidth, bottom, MUTED, 0.6);
  const xOf = (v: number) => left + ((v - lo) / (hi - lo)) * plotWidth;
  for (const v of [lo, hi, 0].filter((v) => v >= lo && v <= hi))
    page.text(xOf(v), bottom - 10, format(v), { size: 7, color: MUTED, align: "center" });
  page.line(xOf(marker), bottom, xOf(marker), bottom + plotHeight, [0.75, 0.15, 0.1], 1, {
    dash: [3, 2],
  });
  page.text(xOf(marker) + 3, bottom + plotHeight - 8, `VaR ${format(marker)}`, {
    size: 7,
    color: [0.75, 0.15, 0.1],
  });
}

/** Whether the plan gets the full report (the multi-page PDF) rather than the one-page summary. */
export const fullReportAllowed = (p: ProductPermissions): boolean =>
  hasPermission(p, "analysis.var");

/** The sections of the report the plan leaves out, in the report's order. */
export const lockedSections = (p: ProductPermissions): PastPerformanceSection[] => {
  const allowed = new Set(allowedSections(p));
  return PAST_PERFORMANCE_SECTIONS.filter((s) => !allowed.has(s));
};
