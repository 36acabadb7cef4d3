/**
 * The words of the exports in both languages. The client's catalogs are not on the server, so the
 * few labels of a file live here.
 */
import type { Locale } from "../../contract/common.ts";

export interface ExportLabels {
  readonly report: string;
  readonly date: string;
  readonly currency: string;
  readonly product: string;
  readonly benchmark: string;
  readonly simulated: string;
  readonly holdings: string;
  readonly symbol: string;
  readonly name: string;
  readonly group: string;
  readonly assetCurrency: string;
  readonly invested: string;
  readonly percentage: string;
  readonly volatility3y: string;
  readonly volatilityShort: string;
  readonly allocation: string;
  readonly allocationByGroup: string;
  readonly total: string;
  readonly risk: string;
  readonly var95: string;
  readonly cvar95: string;
  readonly parametric: string;
  readonly historical: string;
  readonly volatility: string;
  readonly window: string;
  readonly page: string;
  readonly tradingDays: string;
  readonly benchmarks: Readonly<Record<number, string>>;
}

const en: ExportLabels = {
  report: "Portfolio report",
  date: "Date",
  currency: "Currency",
  product: "Product",
  benchmark: "Risk window",
  simulated: "Simulated prices",
  holdings: "Holdings",
  symbol: "Symbol",
  name: "Name",
  group: "Group",
  assetCurrency: "Currency",
  invested: "Invested amount",
  percentage: "Percentage (%)",
  volatility3y: "Volatility 3y (%)",
  volatilityShort: "Vol 3y",
  allocation: "Allocation",
  allocationByGroup: "Allocation by group",
  total: "Total",
  risk: "Risk over one month (21 trading days), 95% confidence",
  var95: "VaR 95",
  cvar95: "CVaR 95",
  parametric: "parametric",
  historical: "historical",
  volatility: "Volatility (annualised)",
  window: "Window",
  page: "Page",
  tradingDays: "trading days",
  benchmarks: {
    1: "1 month",
    2: "3 months",
    3: "6 months",
    4: "1 year",
    5: "3 years",
    6: "5 years",
  },
};

const es: ExportLabels = {
  report: "Informe de cartera",
  date: "Fecha",
  currency: "Divisa",
  product: "Producto",
  benchmark: "Ventana de riesgo",
  simulated: "Precios simulados",
  holdings: "Posiciones",
  symbol: "Símbolo",
  name: "Nombre",
  group: "Grupo",
  assetCurrency: "Divisa",
  invested: "Importe invertido",
  percentage: "Porcentaje (%)",
  volatility3y: "Volatilidad 3 años (%)",
  volatilityShort: "Vol 3a",
  allocation: "Distribución",
  allocationByGroup: "Distribución por grupo",
  total: "Total",
  risk: "Riesgo a un mes (21 sesiones), confianza del 95%",
  var95: "VaR 95",
  cvar95: "CVaR 95",
  parametric: "paramétrico",
  historical: "histórico",
  volatility: "Volatilidad (anualizada)",
  window: "Ventana",
  page: "Página",
  tradingDays: "sesiones",
  benchmarks: { 1: "1 mes", 2: "3 meses", 3: "6 meses", 4: "1 año", 5: "3 años", 6: "5 años" },
};

export const exportLabels = (lang: Locale | undefined): ExportLabels => (lang === "es" ? es : en);

/** Specification section 9: mm/dd/yy (en), dd/mm/yy (es). */
export function formatDay(iso: string, lang: Locale | undefined): string {
  const [y, m, d] = iso.split("-");
  const yy = (y ?? "").slice(-2);
  return lang === "es" ? `${d}/${m}/${yy}` : `${m}/${d}/${yy}`;
}

/** A number for people: grouped, with the language's decimal separator. */
export function formatNumber(value: number, lang: Locale | undefined, digits = 2): string {
  return new Intl.NumberFormat(lang === "es" ? "es-ES" : "en-US", {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(value);
}
