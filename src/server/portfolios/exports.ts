/** The export files of a saved portfolio: a CSV of its holdings and a PDF report. */
import type { FullAnalysis } from "../../contract/analytics.ts";
import type { Edition, Locale } from "../../contract/common.ts";
import { brandNames, productName } from "../../contract/names.ts";
import type { Portfolio } from "../../contract/portfolios.ts";
import { exportLabels, formatDay, formatNumber } from "./labels.ts";
import { A4, createPdf, fitText, type Page, type PdfDocument, type Rgb } from "./pdf.ts";

interface Row {
  readonly symbol: string;
  readonly name: string;
  readonly group: string;
  readonly currency: string;
  readonly investedAmount: number;
  readonly percentage: number;
  /** Annualised, fraction; null without three years of prices. */
  readonly volatility3y: number | null;
}

function rowsOf(portfolio: Portfolio): Row[] {
  return portfolio.assets.flatMap((g) =>
    g.assets.map((a) => ({
      symbol: a.id,
      name: a.name,
      group: g.stockExchange ?? g.assetClass ?? "",
      currency: a.currency,
      investedAmount: a.investedAmount,
      percentage: a.percentage,
      volatility3y: a.volatilities[5],
    })),
  );
}

/** A CSV field: quoted when needed; text that a spreadsheet would run as a formula is neutralised. */
function field(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

const fixed = (v: number, digits = 2) => v.toFixed(digits);

/**
 * RFC 4180 CSV (CRLF, comma), UTF-8 with a byte-order mark so spreadsheets read the accents;
 * numbers with a dot, amounts in the portfolio currency, percentages in percent.
 */
export function portfolioCsv(portfolio: Portfolio, lang: Locale | undefined): string {
  const l = exportLabels(lang);
  const header = [
    l.symbol,
    l.name,
    l.group,
    l.assetCurrency,
    `${l.invested} (${portfolio.currency})`,
    l.percentage,
    l.volatility3y,
  ];
  const lines = [header.map(field).join(",")];
  for (const r of rowsOf(portfolio))
    lines.push(
      [
        field(r.symbol),
        field(r.name),
        field(r.group),
        field(r.currency),
        fixed(r.investedAmount),
        fixed(r.percentage, 4),
        r.volatility3y === null ? "" : fixed(r.volatility3y * 100, 4),
      ].join(","),
    );
  lines.push(
    [
      field(l.total),
      "",
      "",
      field(portfolio.currency),
      fixed(portfolio.totalInvested),
      "100.0000",
      "",
    ].join(","),
  );
  return `\uFEFF${lines.join("\r\n")}\r\n`;
}

export const INK: Rgb = [0.1, 0.12, 0.16];
export const MUTED: Rgb = [0.42, 0.45, 0.5];
export const RULE: Rgb = [0.8, 0.82, 0.86];
export const BAR: Rgb = [0.13, 0.4, 0.75];
export const BAND: Rgb = [0.95, 0.96, 0.98];

export const MARGIN = 50;
export const BOTTOM = 60;

/**
 * The PDF report: title, date, currency, the risk figures of the analysis (VaR 95 and CVaR 95 over a
 * month, parametric and historical, and the volatility), the holdings with an allocation bar each,
 * the total, and the allocation by group.
 */
export function portfolioPdf(
  portfolio: Portfolio,
  analysis: FullAnalysis,
  options: SummaryOptions,
): Uint8Array {
  const l = exportLabels(options.lang);
  const pdf = createPdf({
    title: `${l.report}: ${portfolio.name}`,
    author: brandNames[options.edition],
  });
  const pages = writeSummary(pdf, portfolio, analysis, options);
  pages.forEach((p, i) =>
    p.text(A4.width - MARGIN, 30, `${l.page} ${i + 1} / ${pages.length}`, {
      size: 8,
      color: MUTED,
      align: "right",
    }),
  );
  return pdf.bytes();
}

export interface SummaryOptions {
  readonly lang: Locale | undefined;
  readonly edition: Edition;
  readonly today: string;
  readonly simulated: boolean;
}

/**
 * The summary's pages (the one-page report of a plan without `var`, and the first pages of the
 * full report): written on `pdf`, without footers; returns its pages.
 */
export function writeSummary(
  pdf: PdfDocument,
  portfolio: Portfolio,
  analysis: FullAnalysis,
  options: SummaryOptions,
): Page[] {
  const { lang } = options;
  const l = exportLabels(lang);
  const money = (v: number) => `${formatNumber(v, lang)} ${portfolio.currency}`;
  const pct = (v: number, digits = 2) => `${formatNumber(v, lang, digits)} %`;
  const pages: Page[] = [];
  let page!: Page;
  let y = 0;
  const newPage = () => {
    page = pdf.addPage();
    pages.push(page);
    y = A4.height - MARGIN;
  };
  newPage();

  page.text(MARGIN, y - 8, l.report, { size: 11, color: MUTED });
  y -= 30;
  page.text(MARGIN, y, fitText(portfolio.name, A4.width - 2 * MARGIN, 20, true), {
    size: 20,
    bold: true,
    color: INK,
  });
  y -= 24;
  const facts: [string, string][] = [
    [l.date, formatDay(options.today, lang)],
    [l.currency, portfolio.currency],
    [l.product, productName(lang ?? "en", options.edition, portfolio.product)],
    [l.benchmark, l.benchmarks[portfolio.benchmark] ?? String(portfolio.benchmark)],
  ];
  for (const [label, value] of facts) {
    page.text(MARGIN, y, label, { size: 10, color: MUTED });
    page.text(MARGIN + 110, y, value, { size: 10, color: INK });
    y -= 14;
  }
  if (options.simulated) {
    page.text(MARGIN, y, l.simulated, { size: 10, bold: true, color: [0.75, 0.3, 0.1] });
    y -= 14;
  }

  y -= 10;
  page.text(MARGIN, y, l.risk, { size: 12, bold: true, color: INK });
  y -= 16;
  const v = analysis.var;
  const riskLines: [string, string][] = [
    [
      `${l.var95} (${l.parametric})`,
      `${money(v.parametric.varAmount)}  (${pct(v.parametric.var * 100)})`,
    ],
    [
      `${l.cvar95} (${l.parametric})`,
      `${money(v.parametric.cvarAmount)}  (${pct(v.parametric.cvar * 100)})`,
    ],
    [
      `${l.var95} (${l.historical})`,
      `${money(v.historical.varAmount)}  (${pct(v.historical.var * 100)})`,
    ],
    [
      `${l.cvar95} (${l.historical})`,
      `${money(v.historical.cvarAmount)}  (${pct(v.historical.cvar * 100)})`,
    ],
    [l.volatility, pct(analysis.volatility.annual * 100)],
    [
      l.window,
      `${formatDay(analysis.window.from, lang)} – ${formatDay(analysis.window.to, lang)} (${analysis.window.observations} ${l.tradingDays})`,
    ],
  ];
  for (const [label, value] of riskLines) {
    page.text(MARGIN, y, label, { size: 10, color: MUTED });
    page.text(MARGIN + 170, y, value, { size: 10, color: INK });
    y -= 14;
  }

  // Holdings: symbol, name, group, amount, %, volatility, and a bar scaled to the largest holding.
  const col = { symbol: MARGIN, name: 112, group: 250, amount: 400, pct: 448, vol: 492, bar: 500 };
  const barWidth = A4.width - MARGIN - col.bar;
  const rows = rowsOf(portfolio);
  const largest = Math.max(...rows.map((r) => r.percentage), 1e-9);
  const tableHeader = () => {
    page.text(MARGIN, y, l.holdings, { size: 12, bold: true, color: INK });
    y -= 16;
    const h = { size: 8, bold: true, color: MUTED } as const;
    page.text(col.symbol, y, l.symbol, h);
    page.text(col.name, y, l.name, h);
    page.text(col.group, y, l.group, h);
    page.text(col.amount, y, portfolio.currency, { ...h, align: "right" });
    page.text(col.pct, y, "%", { ...h, align: "right" });
    page.text(col.vol, y, l.volatilityShort, { ...h, align: "right" });
    page.text(col.bar, y, l.allocation, h);
    y -= 5;
    page.line(MARGIN, y, A4.width - MARGIN, y, RULE);
    y -= 12;
  };
  y -= 14;
  tableHeader();
  rows.forEach((r, i) => {
    if (y < BOTTOM + 20) {
      newPage();
      tableHeader();
    }
    if (i % 2 === 1) page.rect(MARGIN, y - 4, A4.width - 2 * MARGIN, 15, BAND);
    page.text(col.symbol, y, fitText(r.symbol, col.name - col.symbol - 6, 9), {
      size: 9,
      color: INK,
    });
    page.text(col.name, y, fitText(r.name, col.group - col.name - 6, 9), { size: 9, color: INK });
    page.text(col.group, y, fitText(r.group, 90, 9), { size: 9, color: MUTED });
    page.text(col.amount, y, formatNumber(r.investedAmount, lang), {
      size: 9,
      color: INK,
      align: "right",
    });
    page.text(col.pct, y, formatNumber(r.percentage, lang), {
      size: 9,
      color: INK,
      align: "right",
    });
    page.text(
      col.vol,
      y,
      r.volatility3y === null ? "–" : formatNumber(r.volatility3y * 100, lang, 1),
      { size: 9, color: INK, align: "right" },
    );
    page.rect(col.bar, y - 1, Math.max(0.5, (r.percentage / largest) * barWidth), 8, BAR);
    y -= 15;
  });
  if (y < BOTTOM + 20) newPage();
  page.line(MARGIN, y + 10, A4.width - MARGIN, y + 10, RULE);
  page.text(col.symbol, y, l.total, { size: 10, bold: true, color: INK });
  page.text(col.amount, y, formatNumber(portfolio.totalInvested, lang), {
    size: 10,
    bold: true,
    color: INK,
    align: "right",
  });
  page.text(col.pct, y, formatNumber(100, lang), {
    size: 10,
    bold: true,
    color: INK,
    align: "right",
  });
  y -= 30;

  // Allocation by group: one bar per stock exchange or asset class, on a 0-100% scale.
  const groups = portfolio.assets.map((g) => ({
    name: g.stockExchange ?? g.assetClass ?? "",
    percentage: g.assets.reduce((s, a) => s + a.percentage, 0),
  }));
  if (y < BOTTOM + 30 + groups.length * 16) newPage();
  page.text(MARGIN, y, l.allocationByGroup, { size: 12, bold: true, color: INK });
  y -= 18;
  const chartLeft = MARGIN + 130;
  const chartWidth = A4.width - MARGIN - chartLeft - 60;
  for (const g of groups) {
    page.text(MARGIN, y, fitText(g.name, 124, 9), { size: 9, color: INK });
    page.rect(chartLeft, y - 2, chartWidth, 10, BAND);
    page.rect(chartLeft, y - 2, Math.max(0.5, (g.percentage / 100) * chartWidth), 10, BAR);
    page.text(chartLeft + chartWidth + 6, y, pct(g.percentage), { size: 9, color: INK });
    y -= 16;
  }
  return pages;
}
