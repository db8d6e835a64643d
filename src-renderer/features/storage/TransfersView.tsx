import { Button, Group, NumberInput, SegmentedControl, Stack, Text } from '@mantine/core';
import { IconPlayerPause, IconPlayerPlay, IconRefresh, IconTrash } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { DOWNLOADED_FILE_PATH } from '@shared/contract/transfers';
import { CopyField } from '../../ui/CopyField';
import { EmptyState } from '../../ui/EmptyState';
import { PageHeader } from '../../ui/PageHeader';
import { QueryState } from '../../ui/QueryState';
import { ResultError } from '../../ui/ResultError';
import { TransferList } from './components/TransferList';
import { TransferTotalsBar } from './components/TransferTotalsBar';
import { filterTransfers, totalsOf, TRANSFER_FILTERS, type TransferFilter } from './model/transfer-totals';
import {
  useChooseAgain,
  useClearFinished,
  useHeldUploads,
  useSetConcurrency,
  useTransferAction,
  useTransferSettings,
  useTransfers,
} from './use-transfers';

const FILTER_LABELS: Record<TransferFilter, string> = { all: 'All', active: 'Active', failed: 'Failed', done: 'Finished' };

/** `#/transfers`: every upload and download, kept by main across restarts, with their controls. */
export function TransfersView() {
  const transfers = useTransfers();
  const settings = useTransferSettings();
  const setConcurrency = useSetConcurrency();
  const act = useTransferAction();
  const clear = useClearFinished();
  const held = useHeldUploads();
  const chooseAgain = useChooseAgain();
  const [filter, setFilter] = useState<TransferFilter>('all');
  const list = useMemo(() => transfers.data ?? [], [transfers.data]);
  // In a browser the console may run on another machine: finished downloads offer a copy.
  const desktop = window.relayConsole !== undefined;
  const shown = useMemo(() => filterTransfers(list, filter), [list, filter]);
  const totals = useMemo(() => totalsOf(list, held), [list, held]);
  const idsWhere = (states: string[]) => list.filter((t) => states.includes(t.state)).map((t) => t.id);
  const bulk = (action: 'pause' | 'resume' | 'retry', states: string[]) => {
    const ids = idsWhere(states);
    if (ids.length > 0) act.mutate({ action, ids });
  };

  return (
    <section aria-labelledby="transfers-title" data-testid="section-transfers">
      <PageHeader
        titleId="transfers-title"
        title="Transfers"
        summary="Uploads and downloads of objects. They go on after the app is closed and opened again, from where they were."
      />
      <Stack gap="sm">
        <TransferTotalsBar totals={totals} />
        <Group justify="space-between" gap="xs">
          <SegmentedControl
            aria-label="Show transfers"
            value={filter}
            onChange={(value) => setFilter(value as TransferFilter)}
            data={TRANSFER_FILTERS.map((value) => ({ value, label: FILTER_LABELS[value] }))}
          />
          <Group gap="xs">
            <NumberInput
              label="At once"
              aria-label="Transfers at once"
              size="xs"
              w={90}
              min={1}
              max={16}
              value={settings.data?.concurrency ?? 3}
              onChange={(value) => typeof value === 'number' && value >= 1 && value <= 16 && setConcurrency.mutate(value)}
            />
            <Button
              size="xs"
              variant="default"
              mt={18}
              leftSection={<IconPlayerPause size={16} />}
              disabled={totals.running + totals.waiting === 0}
              onClick={() => bulk('pause', ['running', 'queued', 'receiving'])}
            >
              Pause all
            </Button>
            <Button
              size="xs"
              variant="default"
              mt={18}
              leftSection={<IconPlayerPlay size={16} />}
              disabled={totals.paused === 0}
              onClick={() => bulk('resume', ['paused'])}
            >
              Resume all
            </Button>
            <Button
              size="xs"
              variant="default"
              mt={18}
              leftSection={<IconRefresh size={16} />}
              disabled={totals.failed === 0}
              onClick={() => bulk('retry', ['failed'])}
            >
              Retry failed
            </Button>
            <Button
              size="xs"
              variant="default"
              mt={18}
              leftSection={<IconTrash size={16} />}
              disabled={list.every((t) => !['done', 'failed', 'canceled'].includes(t.state))}
              onClick={() => clear.mutate()}
            >
              Clear finished
            </Button>
          </Group>
        </Group>
        {setConcurrency.isError ? (
          <ResultError error={setConcurrency.error} title="The number of transfers at once was not changed" />
        ) : null}
        {act.isError ? <ResultError error={act.error} title="The transfer could not be changed" /> : null}
        {chooseAgain.isError ? (
          <ResultError error={chooseAgain.error} title="The upload could not go on with the file chosen again" />
        ) : null}
        <QueryState query={transfers} loading="Reading the transfer queue…" errorTitle="The transfer queue could not be read">
          {() =>
            shown.length === 0 ? (
              <EmptyState testId="transfers-empty">
                {list.length === 0
                  ? 'No transfers yet. Upload files by dropping them on a folder in Storage, or download a selection from there.'
                  : `No ${FILTER_LABELS[filter].toLowerCase()} transfers.`}
              </EmptyState>
            ) : (
              <TransferList
                transfers={shown}
                onAction={(id, action) => act.mutate({ action, ids: [id] })}
                held={held}
                onChooseAgain={(transfer, file) => chooseAgain.mutate({ transfer, file })}
                choosingId={chooseAgain.isPending ? chooseAgain.variables.transfer.id : undefined}
                {...(desktop ? {} : { saveUrlOf: (id: string) => `${DOWNLOADED_FILE_PATH}${encodeURIComponent(id)}` })}
              />
            )
          }
        </QueryState>
        {settings.data ? (
          <Group gap="xs">
            <Text size="sm" c="dimmed">
              Downloads are saved in
            </Text>
            <CopyField value={settings.data.downloadsDir} label="the downloads folder" />
          </Group>
        ) : null}
      </Stack>
    </section>
  );
}
