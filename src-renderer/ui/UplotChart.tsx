import { useElementSize } from '@mantine/hooks';
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';

export interface ChartSeries {
  label: string;
  values: number[];
}

const COLORS = ['#1c7ed6', '#e8590c', '#2f9e44', '#ae3ec9', '#f08c00', '#0c8599', '#c2255c', '#5c940d'];

/**
 * A time chart with uPlot (small, fast with thousands of points): x in seconds since the epoch,
 * one line per series, values shown through `format` on the axis and in the legend; `utc`
 * shows times in UTC (data a service reports in UTC slots) instead of the viewer's zone.
 */
export function UplotChart({
  x,
  series,
  format,
  label,
  height = 260,
  utc = false,
  testId,
}: {
  x: number[];
  series: ChartSeries[];
  format(value: number): string;
  label: string;
  height?: number;
  utc?: boolean;
  testId?: string;
}) {
  const { ref: box, width } = useElementSize();
  const target = useRef<HTMLDivElement>(null);
  const formatRef = useRef(format);
  formatRef.current = format;

  useEffect(() => {
    if (!target.current || width === 0) return;
    const chart = new uPlot(
      {
        width,
        height,
        series: [
          {},
          ...series.map((s, i) => ({
            label: s.label,
            stroke: COLORS[i % COLORS.length],
            width: 2,
            value: (_: uPlot, v: number | null) => (v === null ? '—' : formatRef.current(v)),
          })),
        ],
        axes: [{}, { values: (_: uPlot, ticks: number[]) => ticks.map((t) => formatRef.current(t)), size: 80 }],
        scales: { x: { time: true } },
        ...(utc ? { tzDate: (seconds: number) => uPlot.tzDate(new Date(seconds * 1000), 'Etc/UTC') } : {}),
      },
      [x, ...series.map((s) => s.values)],
      target.current,
    );
    return () => chart.destroy();
  }, [x, series, width, height, utc]);

  return (
    <div ref={box} className="chart-box">
      <div ref={target} role="img" aria-label={label} data-testid={testId} />
    </div>
  );
}
