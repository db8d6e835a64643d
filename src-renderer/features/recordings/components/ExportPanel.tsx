import { Button, Group, Text, TextInput } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { clockOf, timeOnDay } from '../model/day';
import { checkedRange, exportKey } from '../model/range';
import type { Span } from '../model/timeline';
import { BucketExport } from './BucketExport';

/**
 * A range of the day to export as one MP4 (cut at keyframes by the relay): its ends typed as
 * clock times or taken from the cursor, shown on the timeline.
 */
export function ExportPanel({
  day,
  stream,
  range,
  spans,
  cursorMs,
  downloadUrl,
  onRange,
}: {
  day: string;
  stream: string;
  range: Span | undefined;
  spans: readonly Span[];
  cursorMs: number;
  downloadUrl: ((range: Span) => string) | undefined;
  onRange(range: Span): void;
}) {
  const checked = range ? checkedRange(range.startMs, range.endMs, spans) : undefined;
  const setEnd = (which: 'startMs' | 'endMs', ms: number | undefined) => {
    if (ms === undefined || !range) return;
    onRange({ ...range, [which]: ms });
  };
  return (
    <section className="panel" aria-labelledby="rec-export-title">
      <h2 id="rec-export-title">Export a range</h2>
      {range ? (
        <>
          <Group gap="sm" align="flex-end" wrap="wrap">
            <TextInput
              type="time"
              step={1}
              label="From"
              value={clockOf(range.startMs)}
              onChange={(e) => setEnd('startMs', timeOnDay(day, e.currentTarget.value))}
              size="xs"
            />
            <TextInput
              type="time"
              step={1}
              label="To"
              value={clockOf(range.endMs)}
              onChange={(e) => setEnd('endMs', timeOnDay(day, e.currentTarget.value))}
              size="xs"
            />
            <Button variant="default" size="xs" onClick={() => setEnd('startMs', cursorMs)}>
              From the cursor
            </Button>
            <Button variant="default" size="xs" onClick={() => setEnd('endMs', cursorMs)}>
              To the cursor
            </Button>
            {checked?.ok && downloadUrl ? (
              <Button
                component="a"
                href={downloadUrl(checked.range)}
                download
                size="xs"
                leftSection={<IconDownload size={14} aria-hidden="true" />}
              >
                Download MP4
              </Button>
            ) : (
              <Button size="xs" disabled leftSection={<IconDownload size={14} aria-hidden="true" />}>
                Download MP4
              </Button>
            )}
          </Group>
          {checked && !checked.ok ? (
            <Text size="sm" mt="xs" c="var(--mantine-color-error)">
              {checked.reason}
            </Text>
          ) : (
            <Text size="sm" mt="xs" className="muted">
              One MP4 of the range, cut at keyframes: from the last one at or before the start to the first at or after the end.
            </Text>
          )}
          <BucketExport
            url={checked?.ok && downloadUrl ? downloadUrl(checked.range) : undefined}
            suggestedKey={exportKey(stream, range.startMs)}
          />
        </>
      ) : (
        <Text size="sm" className="muted">
          Nothing recorded on this day to export.
        </Text>
      )}
    </section>
  );
}
