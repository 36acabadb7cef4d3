export { AllocationChart, type AllocationChartProps } from "./allocation-chart.tsx";
export { BarChart, type Bar, type BarChartProps } from "./bar-chart.tsx";
export {
  DistributionChart,
  type DistributionChartProps,
  type DistributionMarker,
  type MarkerTone,
} from "./distribution-chart.tsx";
export { GaugeChart, type GaugeChartProps } from "./gauge-chart.tsx";
export { LineChart, type LineBand, type LineChartProps, type LineSeries } from "./line-chart.tsx";
export type { ChartTextProps } from "./frame.tsx";
export * from "./scale.ts";
export { HeatMap, heatColor, type HeatMapItem, type HeatMapProps } from "./heat-map.tsx";
