import { Anchor, Group, Progress, Text } from '@mantine/core';
import type { TransferStatus } from '@shared/contract/transfers';
import { printRoute } from '@renderer/app/routes';
import { formatBytes } from '@renderer/ui/format';
import { rateText, totalsOf } from '../model/transfer-totals';

/** Under the folder: the transfers of this bucket still going, in one line, with a way to all of them. */
export function TransferStrip({ transfers, held }: { transfers: TransferStatus[]; held: ReadonlySet<string> }) {
  const totals = totalsOf(transfers, held);
  const going = totals.running + totals.waiting + totals.paused;
  if (going === 0 && totals.failed === 0 && totals.needFile === 0) return null;
  const percent = totals.bytesTotal > 0 ? (totals.bytesDone / totals.bytesTotal) * 100 : 0;
  return (
    <div className="batch-panel" role="status" aria-label="Transfers of this bucket" data-testid="transfer-strip">
      <Group justify="space-between" gap="xs" wrap="nowrap">
        <Text size="sm">
          {going > 0
            ? `${going} ${going === 1 ? 'transfer' : 'transfers'} · ${formatBytes(totals.bytesDone)} of ${formatBytes(totals.bytesTotal)}`
            : ''}
          {rateText(totals)}
          {totals.failed > 0 ? `${going > 0 ? ' · ' : ''}${totals.failed} failed` : ''}
          {totals.needFile > 0
            ? `${going + totals.failed > 0 ? ' · ' : ''}${totals.needFile} ${totals.needFile === 1 ? 'upload needs its file' : 'uploads need their file'} chosen again`
            : ''}
        </Text>
        <Anchor size="sm" href={printRoute({ section: 'transfers' })}>
          View transfers
        </Anchor>
      </Group>
      {going > 0 ? <Progress value={percent} size="sm" mt={4} aria-label="Transfers of this bucket: progress" /> : null}
    </div>
  );
}
