import { Group, Progress, Text } from '@mantine/core';
import { formatBytes } from '@renderer/ui/format';
import { countsText, rateText, type TransferTotals } from '../model/transfer-totals';

/** All transfers not finished yet as one bar: bytes, speed, time left and how many are where. */
export function TransferTotalsBar({ totals }: { totals: TransferTotals }) {
  const percent = totals.bytesTotal > 0 ? (totals.bytesDone / totals.bytesTotal) * 100 : 0;
  return (
    <div className="panel" data-testid="transfer-totals">
      <Group justify="space-between" mb={6}>
        <Text size="sm" fw={500}>
          {totals.bytesTotal > 0 ? `${formatBytes(totals.bytesDone)} of ${formatBytes(totals.bytesTotal)}` : 'Nothing under way'}
          {rateText(totals)}
        </Text>
        <Text size="sm" c="dimmed">
          {countsText(totals) || 'No transfers'}
        </Text>
      </Group>
      <Progress value={percent} size="md" aria-label="All transfers: progress" />
    </div>
  );
}
