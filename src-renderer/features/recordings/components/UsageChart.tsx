import { useMemo } from 'react';
import { formatBytes } from '../../../ui/format';
import { QueryState } from '../../../ui/QueryState';
import { UplotChart } from '../../../ui/UplotChart';
import { useUsage } from '../use-recordings';

const DAYS = 14;

/** Bytes the camera's recordings take in the bucket, per day of the last two weeks. */
export function UsageChart({ stream, lastDay }: { stream: string; lastDay: string }) {
  const usage = useUsage(stream, lastDay, DAYS);
  const chart = useMemo(() => {
    const days = usage.data?.days ?? [];
    return {
      x: days.map((d) => d.startMs / 1000),
      series: [{ label: 'Bytes', values: days.map((d) => d.bytes) }],
      total: days.reduce((sum, d) => sum + d.bytes, 0),
    };
  }, [usage.data]);
  return (
    <section className="panel" aria-labelledby="rec-usage-title">
      <h2 id="rec-usage-title">Storage used per day</h2>
      <QueryState query={usage} loading="Reading the bucket's usage…" errorTitle="The usage could not be read">
        {() => (
          <>
            <p className="muted" data-testid="usage-total">
              {formatBytes(chart.total)} in the last {DAYS} days.
            </p>
            <UplotChart
              x={chart.x}
              series={chart.series}
              format={formatBytes}
              label={`Bytes of ${stream}'s recordings per day, the last ${DAYS} days`}
              height={160}
              testId="usage-chart"
            />
          </>
        )}
      </QueryState>
    </section>
  );
}
