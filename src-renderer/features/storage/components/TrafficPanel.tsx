import { Group, MultiSelect, SegmentedControl, Select, Stack, Text } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import dayjs from 'dayjs';
import { useEffect, useMemo, useState } from 'react';
import { CDN_GRANULARITIES, type CdnGranularity } from '@shared/contract/cdn';
import { formatBytes } from '@renderer/ui/format';
import { QueryState } from '@renderer/ui/QueryState';
import { formatBitrate, slotSeconds, trafficSummary } from '../model/traffic-summary';
import { useTraffic } from '../use-cdn';
import { UplotChart } from '@renderer/ui/UplotChart';

const GRANULARITY_LABEL: Record<CdnGranularity, string> = { '5min': '5 minutes', hour: 'Hour', day: 'Day' };
const day = (date: Date | string | null) => (date ? dayjs(date).format('YYYY-MM-DD') : '');

/** Flux or bandwidth of chosen domains over a date range, as a chart with its total or peak. */
export function TrafficPanel({ accountId, domains }: { accountId: string; domains: string[] }) {
  const [kind, setKind] = useState<'flux' | 'bandwidth'>('flux');
  const [granularity, setGranularity] = useState<CdnGranularity>('hour');
  const [range, setRange] = useState<[string | null, string | null]>([day(dayjs().subtract(6, 'day').toDate()), day(new Date())]);
  const [chosen, setChosen] = useState<string[]>([]);
  useEffect(() => setChosen((current) => (current.length > 0 ? current.filter((d) => domains.includes(d)) : domains)), [domains]);
  const [start, end] = range;
  const query = { kind, granularity, startDate: day(start), endDate: day(end ?? start), domains: chosen };
  const traffic = useTraffic(accountId, start ? query : { ...query, domains: [] });
  const x = useMemo(() => slotSeconds(traffic.data?.time ?? []), [traffic.data]);
  const series = useMemo(() => (traffic.data?.series ?? []).map((s) => ({ label: s.domain, values: s.values })), [traffic.data]);
  const summary = traffic.data ? trafficSummary(traffic.data) : undefined;
  const format = kind === 'flux' ? formatBytes : formatBitrate;

  return (
    <section aria-label="Traffic" className="panel">
      <Stack gap="xs">
        <Group gap="sm" align="flex-end" wrap="wrap">
          <SegmentedControl
            aria-label="Measure"
            value={kind}
            onChange={(value) => setKind(value as 'flux' | 'bandwidth')}
            data={[
              { value: 'flux', label: 'Flux' },
              { value: 'bandwidth', label: 'Bandwidth' },
            ]}
          />
          <Select
            label="Granularity"
            size="xs"
            w={130}
            allowDeselect={false}
            value={granularity}
            onChange={(v) => v && setGranularity(v as CdnGranularity)}
            data={CDN_GRANULARITIES.map((g) => ({ value: g, label: GRANULARITY_LABEL[g] }))}
          />
          <DatePickerInput
            type="range"
            label="Dates (UTC)"
            size="xs"
            w={310}
            value={range}
            onChange={setRange}
            maxDate={new Date()}
            allowSingleDateInRange
          />
          <MultiSelect
            label="Domains"
            size="xs"
            miw={220}
            maw={480}
            value={chosen}
            onChange={setChosen}
            data={domains}
            placeholder={chosen.length === 0 ? 'Choose domains' : undefined}
          />
        </Group>
        <QueryState query={traffic} loading="Reading the traffic…" errorTitle="The traffic could not be read" />
        {chosen.length === 0 ? (
          <Text size="sm" c="dimmed">
            Choose at least one domain.
          </Text>
        ) : null}
        {traffic.data && summary ? (
          <>
            <Text size="sm" data-testid="traffic-summary">
              {kind === 'flux'
                ? `${formatBytes(summary.total)} served from ${query.startDate} to ${query.endDate}`
                : summary.peakAt
                  ? `Peak ${formatBitrate(summary.peak)} at ${summary.peakAt} UTC on ${summary.peakDomain}`
                  : 'No traffic in this range'}
            </Text>
            <UplotChart
              utc
              testId="traffic-chart"
              x={x}
              series={series}
              format={format}
              label={`${kind === 'flux' ? 'Flux' : 'Bandwidth'} per ${GRANULARITY_LABEL[granularity].toLowerCase()} of ${chosen.join(', ')}`}
            />
          </>
        ) : null}
      </Stack>
    </section>
  );
}
