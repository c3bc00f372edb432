import { DEFAULT_QUOTA_PER_UNIT, formatQuota, shortNumber, type QuotaDisplay } from '@switchyard/shared';
import type { ChartOption } from '../../components/Chart';
import { t } from '../../lib/i18n';
import type { Dashboard } from './aggregate';

/*
 * The three charts of the dashboard as ECharts options. Each model keeps one colour across the charts.
 */

const PALETTE = [
  '#5470c6', '#91cc75', '#fac858', '#ee6666', '#73c0de', '#3ba272', '#fc8452', '#9a60b4', '#ea7ccc',
  '#4e79a7', '#f28e2b', '#59a14f', '#e15759', '#76b7b2', '#edc948', '#b07aa1', '#ff9da7', '#9c755f',
];

export const colorOf = (index: number): string => PALETTE[index % PALETTE.length];

const legend = { type: 'scroll' as const, top: 0 };

/** Axis ticks of small amounts need more digits than the console's two ($0.002, not $0.00). */
export function axisQuota(quota: number, display: QuotaDisplay): string {
  if (!display.displayInCurrency) return shortNumber(quota);
  const dollars = quota / (display.quotaPerUnit || DEFAULT_QUOTA_PER_UNIT);
  return `$${Number(dollars.toPrecision(3))}`;
}

interface TooltipParam {
  seriesName?: string;
  name?: string;
  value?: unknown;
  marker?: unknown;
}

/** Quota by model over time, stacked: one bar per bucket, one segment per model. */
export function quotaOverTime(d: Dashboard, display: QuotaDisplay): ChartOption {
  return {
    backgroundColor: 'transparent',
    aria: { enabled: true },
    legend,
    grid: { left: 8, right: 16, top: 40, bottom: 8, containLabel: true },
    tooltip: {
      trigger: 'axis',
      axisPointer: { type: 'shadow' },
      confine: true,
      formatter: (raw: unknown) => {
        const params = (raw as TooltipParam[]).filter((p) => Number(p.value) > 0).sort((a, b) => Number(b.value) - Number(a.value));
        const sum = params.reduce((s, p) => s + Number(p.value), 0);
        const head = `${(raw as TooltipParam[])[0]?.name ?? ''}<br/>${t('总计：{total}', { total: formatQuota(sum, display, 4) })}`;
        const line = (p: TooltipParam) =>
          t('{label}：{value}', { label: `${String(p.marker ?? '')}${p.seriesName ?? ''}`, value: formatQuota(Number(p.value), display, 4) });
        return [head, ...params.map(line)].join('<br/>');
      },
    },
    xAxis: { type: 'category', data: d.labels },
    yAxis: { type: 'value', axisLabel: { formatter: (v: number) => axisQuota(v, display) } },
    series: d.models.map((m, i) => ({
      type: 'bar',
      name: m.model,
      stack: 'quota',
      data: d.quota[i],
      itemStyle: { color: colorOf(i) },
      emphasis: { focus: 'series' },
      barMaxWidth: 48,
    })),
  };
}

/** Calls per model, the busiest on top. */
export function callsByModel(d: Dashboard): ChartOption {
  const ranked = d.models.map((m, i) => ({ ...m, color: colorOf(i) })).sort((a, b) => a.count - b.count);
  return {
    backgroundColor: 'transparent',
    aria: { enabled: true },
    grid: { left: 8, right: 32, top: 8, bottom: 8, containLabel: true },
    tooltip: { trigger: 'item', confine: true },
    xAxis: { type: 'value', minInterval: 1 },
    yAxis: { type: 'category', data: ranked.map((m) => m.model) },
    series: [
      {
        type: 'bar',
        name: t('调用次数'),
        data: ranked.map((m) => ({ value: m.count, name: m.model, itemStyle: { color: m.color } })),
        label: { show: true, position: 'right' },
        barMaxWidth: 28,
      },
    ],
  };
}

/** Each model's share of the calls. */
export function modelShare(d: Dashboard): ChartOption {
  return {
    backgroundColor: 'transparent',
    aria: { enabled: true },
    legend: { ...legend, orient: 'horizontal' },
    tooltip: { trigger: 'item', confine: true, formatter: t('{b}：{c}（{d}%）') },
    series: [
      {
        type: 'pie',
        name: t('模型调用次数占比'),
        radius: ['40%', '68%'],
        center: ['50%', '58%'],
        itemStyle: { borderRadius: 6, borderWidth: 1, borderColor: 'transparent' },
        label: { formatter: '{d}%' },
        data: d.models.map((m, i) => ({ name: m.model, value: m.count, itemStyle: { color: colorOf(i) } })),
      },
    ],
  };
}
