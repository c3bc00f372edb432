import { useEffect, useRef } from 'react';
import { init, use as registerChartParts, type ComposeOption, type ECharts } from 'echarts/core';
import { BarChart, PieChart, type BarSeriesOption, type PieSeriesOption } from 'echarts/charts';
import {
  AriaComponent,
  GridComponent,
  LegendComponent,
  TooltipComponent,
  type AriaComponentOption,
  type GridComponentOption,
  type LegendComponentOption,
  type TooltipComponentOption,
} from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';
import { useThemeMode } from '../app/ThemeContext';

// Only the parts the console draws, so the bundle carries no more of ECharts than that.
registerChartParts([BarChart, PieChart, AriaComponent, GridComponent, LegendComponent, TooltipComponent, CanvasRenderer]);

export type ChartOption = ComposeOption<
  BarSeriesOption | PieSeriesOption | AriaComponentOption | GridComponentOption | LegendComponentOption | TooltipComponentOption
>;

interface Props {
  option: ChartOption;
  height?: number;
  /** Names the chart for assistive technology and tests; ECharts' aria description follows it. */
  label?: string;
}

/**
 * One ECharts chart on a canvas. It follows the console's light/dark theme (re-created on a switch), resizes
 * with its box, and is disposed with the component.
 */
export function Chart({ option, height = 360, label }: Props) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<ECharts | null>(null);
  const { mode } = useThemeMode();

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const instance = init(el, mode === 'dark' ? 'dark' : undefined, { renderer: 'canvas', locale: 'ZH' });
    chart.current = instance;
    const observer = new ResizeObserver(() => instance.resize());
    observer.observe(el);
    return () => {
      observer.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, [mode]);

  useEffect(() => {
    chart.current?.setOption(option, { notMerge: true });
  }, [option, mode]);

  return <div ref={box} role="img" data-chart={label} style={{ width: '100%', height }} />;
}
