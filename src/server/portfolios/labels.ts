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

/**
 * A market series' name from the data in the report's language: the data names its indices
 * "… (price index)" (PRODUCT.md "Names a person sees": series by their translated names).
 */
export function seriesNameIn(name: string, lang: Locale | undefined): string {
  return lang === "es" ? name.replace(/\(price index\)$/, "(índice de precios)") : name;
}

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

/**
 * The words of the full report (the multi-page PDF of a plan with `var`): section titles, the
 * methods of its figures in words (the formulas are in docs/analytics.md, "Portfolio history"),
 * legends, tables and the plan locks. `{…}` marks what is filled in.
 */
export interface ReportLabels {
  readonly fullReport: string;
  readonly pageOf: string;
  readonly method: string;
  readonly dataTo: string;
  readonly windowText: string;
  readonly lockedLine: string;
  readonly notInPlan: string;
  readonly unavailable: Readonly<Record<string, string>>;
  readonly sections: Readonly<
    Record<
      "risk" | "growth" | "calendarYears" | "rolling" | "drawdowns" | "correlation" | "regression",
      string
    >
  >;
  readonly methods: Readonly<Record<string, string>>;
  readonly portfolio: string;
  readonly benchmark: string;
  readonly difference: string;
  readonly year: string;
  readonly partialYear: string;
  readonly rollingReturn: string;
  readonly rollingVolatility: string;
  readonly underwater: string;
  readonly maxDrawdown: string;
  readonly worstFalls: string;
  readonly depth: string;
  readonly start: string;
  readonly trough: string;
  readonly recovery: string;
  readonly notRecovered: string;
  readonly days: string;
  readonly averageCorrelation: string;
  readonly constant: string;
  readonly coefficient: string;
  readonly estimate: string;
  readonly standardError: string;
  readonly tStatistic: string;
  readonly alphaPerPeriod: string;
  readonly alphaAnnualised: string;
  readonly rSquared: string;
  readonly adjustedRSquared: string;
  readonly residualStandardError: string;
  readonly periods: string;
  readonly degreesOfFreedom: string;
  readonly excluded: string;
  readonly factors: Readonly<Record<string, string>>;
  readonly covariances: Readonly<Record<string, string>>;
  readonly scalings: Readonly<Record<string, string>>;
  readonly varMethod: string;
  readonly monteCarlo: string;
  readonly var: string;
  readonly cvar: string;
  readonly dailyVolatility: string;
  readonly horizonVolatility: string;
  readonly diversificationBenefit: string;
  readonly standAloneSum: string;
  readonly expectedReturn: string;
  readonly requiredReturn: string;
  readonly lossDistribution: string;
  readonly scenarios: string;
  readonly riskContributions: string;
  readonly growthFrom: string;
}

const reportEn: ReportLabels = {
  fullReport: "Full analysis",
  pageOf: "Page {n} of {total}",
  method: "Method",
  dataTo: "Data to {date}",
  windowText: "{from} – {to} ({n} daily returns)",
  lockedLine: "Included in the {plan} plan; not in this report.",
  notInPlan: "Not in this plan",
  unavailable: {
    "not-enough-history": "Not available: the holdings' common history is too short.",
    "no-factor-data": "Not available: no factor data covers the window.",
    "no-benchmark-data": "The benchmark has no prices on the holdings' days.",
    "benchmark-unavailable":
      "The chosen benchmark is no longer in the market data; the default is used.",
  },
  sections: {
    risk: "Risk",
    growth: "Growth of the amount invested",
    calendarYears: "Calendar-year returns",
    rolling: "Rolling 12-month return and volatility",
    drawdowns: "Falls from a high (drawdowns)",
    correlation: "How the holdings move together (correlation)",
    regression: "The portfolio against the market factors (regression)",
  },
  methods: {
    risk: "VaR and CVaR at {confidence}% over {horizon} trading days; parametric: normal with the {covariance} covariance; historical: {scaling}",
    "current-weights-daily":
      "today's weights held every day, daily returns compounded from the amount invested",
    "calendar-year-compounded": "daily returns compounded within each calendar year",
    "rolling-window":
      "windows of {days} trading days: compounded return, and sample standard deviation of the daily returns times sqrt(252)",
    "peak-to-recovery":
      "value / previous high - 1 each day; a fall runs from a high to the trough and back to the high",
    "pearson-average-linkage":
      "Pearson correlation of daily returns; holdings ordered by average-linkage clustering",
    "ols-weekly":
      "least squares on {days}-day returns against the factors; standard errors from the residuals",
  },
  portfolio: "Portfolio",
  benchmark: "Benchmark",
  difference: "Difference",
  year: "Year",
  partialYear: "* part of the year",
  rollingReturn: "12-month return",
  rollingVolatility: "12-month volatility (annualised)",
  underwater: "Below the previous high",
  maxDrawdown: "Largest fall",
  worstFalls: "Five largest falls",
  depth: "Fall",
  start: "High",
  trough: "Trough",
  recovery: "Recovered",
  notRecovered: "not yet",
  days: "Days",
  averageCorrelation: "Average correlation",
  constant: "constant over the window",
  coefficient: "Coefficient",
  estimate: "Estimate",
  standardError: "Std. error",
  tStatistic: "t",
  alphaPerPeriod: "Alpha (per period)",
  alphaAnnualised: "Alpha (annualised)",
  rSquared: "R²",
  adjustedRSquared: "Adjusted R²",
  residualStandardError: "Residual standard error",
  periods: "Periods",
  degreesOfFreedom: "Degrees of freedom",
  excluded: "Factors left out",
  factors: {
    market: "Market",
    rates: "Interest rates",
    crypto: "Crypto",
    commodities: "Commodities",
    inflation: "Inflation",
  },
  covariances: { sample: "sample", ewma: "EWMA", "ledoit-wolf": "Ledoit-Wolf shrunk" },
  scalings: {
    overlapping: "overlapping windows of the horizon",
    "sqrt-time": "daily returns times the square root of the horizon",
  },
  varMethod: "Method",
  monteCarlo: "Monte Carlo",
  var: "VaR",
  cvar: "CVaR",
  dailyVolatility: "Volatility (daily)",
  horizonVolatility: "Volatility (horizon)",
  diversificationBenefit: "Diversification benefit",
  standAloneSum: "Sum of the stand-alone risks",
  expectedReturn: "Expected return (annual)",
  requiredReturn: "Required return (annual)",
  lossDistribution: "Returns over the horizon in the window (the historical scenarios)",
  scenarios: "scenarios",
  riskContributions: "Share of the portfolio's risk by holding",
  growthFrom: "From {amount}",
};

const reportEs: ReportLabels = {
  fullReport: "Análisis completo",
  pageOf: "Página {n} de {total}",
  method: "Método",
  dataTo: "Datos hasta {date}",
  windowText: "{from} – {to} ({n} rentabilidades diarias)",
  lockedLine: "Incluido en el plan {plan}; no figura en este informe.",
  notInPlan: "No incluido en este plan",
  unavailable: {
    "not-enough-history": "No disponible: la historia común de las posiciones es demasiado corta.",
    "no-factor-data": "No disponible: no hay datos de factores para la ventana.",
    "no-benchmark-data": "La referencia no tiene precios en los días de las posiciones.",
    "benchmark-unavailable":
      "La referencia elegida ya no está en los datos de mercado; se usa la predeterminada.",
  },
  sections: {
    risk: "Riesgo",
    growth: "Evolución del importe invertido",
    calendarYears: "Rentabilidad por año natural",
    rolling: "Rentabilidad y volatilidad a 12 meses móviles",
    drawdowns: "Caídas desde máximos",
    correlation: "Cómo se mueven juntas las posiciones (correlación)",
    regression: "La cartera frente a los factores de mercado (regresión)",
  },
  methods: {
    risk: "VaR y CVaR al {confidence}% a {horizon} sesiones; paramétrico: normal con la covarianza {covariance}; histórico: {scaling}",
    "current-weights-daily":
      "pesos actuales mantenidos cada día, rentabilidades diarias compuestas desde el importe invertido",
    "calendar-year-compounded": "rentabilidades diarias compuestas dentro de cada año natural",
    "rolling-window":
      "ventanas de {days} sesiones: rentabilidad compuesta y desviación típica muestral de las rentabilidades diarias por raíz de 252",
    "peak-to-recovery":
      "valor / máximo anterior - 1 cada día; una caída va de un máximo al mínimo y de vuelta al máximo",
    "pearson-average-linkage":
      "correlación de Pearson de las rentabilidades diarias; posiciones ordenadas por agrupamiento de enlace medio",
    "ols-weekly":
      "mínimos cuadrados de rentabilidades a {days} sesiones frente a los factores; errores típicos de los residuos",
  },
  portfolio: "Cartera",
  benchmark: "Referencia",
  difference: "Diferencia",
  year: "Año",
  partialYear: "* parte del año",
  rollingReturn: "Rentabilidad a 12 meses",
  rollingVolatility: "Volatilidad a 12 meses (anualizada)",
  underwater: "Por debajo del máximo anterior",
  maxDrawdown: "Mayor caída",
  worstFalls: "Las cinco mayores caídas",
  depth: "Caída",
  start: "Máximo",
  trough: "Mínimo",
  recovery: "Recuperada",
  notRecovered: "todavía no",
  days: "Sesiones",
  averageCorrelation: "Correlación media",
  constant: "constante en la ventana",
  coefficient: "Coeficiente",
  estimate: "Estimación",
  standardError: "Error típico",
  tStatistic: "t",
  alphaPerPeriod: "Alfa (por periodo)",
  alphaAnnualised: "Alfa (anualizada)",
  rSquared: "R²",
  adjustedRSquared: "R² ajustado",
  residualStandardError: "Error típico residual",
  periods: "Periodos",
  degreesOfFreedom: "Grados de libertad",
  excluded: "Factores excluidos",
  factors: {
    market: "Mercado",
    rates: "Tipos de interés",
    crypto: "Criptomonedas",
    commodities: "Materias primas",
    inflation: "Inflación",
  },
  covariances: { sample: "muestral", ewma: "EWMA", "ledoit-wolf": "contraída de Ledoit-Wolf" },
  scalings: {
    overlapping: "ventanas solapadas del horizonte",
    "sqrt-time": "rentabilidades diarias por la raíz del horizonte",
  },
  varMethod: "Método",
  monteCarlo: "Monte Carlo",
  var: "VaR",
  cvar: "CVaR",
  dailyVolatility: "Volatilidad (diaria)",
  horizonVolatility: "Volatilidad (horizonte)",
  diversificationBenefit: "Beneficio de la diversificación",
  standAloneSum: "Suma de los riesgos individuales",
  expectedReturn: "Rentabilidad esperada (anual)",
  requiredReturn: "Rentabilidad exigida (anual)",
  lossDistribution: "Rentabilidades a un horizonte en la ventana (los escenarios históricos)",
  scenarios: "escenarios",
  riskContributions: "Parte del riesgo de la cartera por posición",
  growthFrom: "Desde {amount}",
};

export const reportLabels = (lang: Locale | undefined): ReportLabels =>
  lang === "es" ? reportEs : reportEn;

/** A label with its `{name}` places filled. */
export const fill = (template: string, values: Record<string, string | number>): string =>
  template.replace(/\{(\w+)\}/g, (m, k: string) => (k in values ? String(values[k]) : m));
