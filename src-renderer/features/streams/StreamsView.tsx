import { Button, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconPlus, IconSearch } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useStreams } from '../../api/use-streams';
import type { StreamTab } from '../../app/routes';
import { SECTIONS } from '../../app/sections';
import { useUi } from '../../app/ui-store-context';
import { EmptyState } from '../../ui/EmptyState';
import { PageHeader } from '../../ui/PageHeader';
import { QueryState } from '../../ui/QueryState';
import { DeleteStreamDialog } from './components/DeleteStreamDialog';
import { StreamDetail } from './components/StreamDetail';
import { StreamForm } from './components/StreamForm';
import { StreamsTable } from './components/StreamsTable';
import type { EditedStream } from './model/stream-form';
import { matchesFilter, streamRow } from './model/stream-rows';

/** The edited stream is taken when the dialog opens: live stats that refresh the list every second must not reset the form. */
type Dialog = { kind: 'add' } | { kind: 'edit'; stream: EditedStream } | { kind: 'delete'; name: string } | undefined;

/** The stream list (`#/streams`) or one stream (`#/streams/<name>[/links]`), with add, edit and delete. */
export function StreamsView({ stream, tab }: { stream?: string; tab?: StreamTab }) {
  const streams = useStreams();
  const navigate = useUi((s) => s.navigate);
  const [dialog, setDialog] = useState<Dialog>();
  const [filter, setFilter] = useState('');
  const list = useMemo(() => streams.data ?? [], [streams.data]);
  const rows = useMemo(() => list.map(streamRow), [list]);
  const visible = useMemo(() => rows.filter((row) => matchesFilter(row, filter)), [rows, filter]);

  const editing = dialog?.kind === 'edit' ? dialog.stream : undefined;
  const edit = (name: string) => setDialog({ kind: 'edit', stream: { name, sources: list.find((s) => s.name === name)?.sources ?? [] } });

  const dialogs = (
    <>
      <StreamForm
        opened={dialog?.kind === 'add' || dialog?.kind === 'edit'}
        editing={editing}
        existingNames={list.map((s) => s.name)}
        onClose={() => setDialog(undefined)}
        onSaved={(name) => {
          setDialog(undefined);
          // A renamed stream's page moves with it.
          if (stream && name !== stream) navigate({ section: 'streams', stream: name });
        }}
      />
      <DeleteStreamDialog
        name={dialog?.kind === 'delete' ? dialog.name : undefined}
        onClose={() => setDialog(undefined)}
        onDeleted={() => {
          setDialog(undefined);
          if (stream) navigate({ section: 'streams' });
        }}
      />
    </>
  );

  if (stream && streams.data) {
    return (
      <section data-testid="section-streams">
        <StreamDetail
          name={stream}
          stream={list.find((s) => s.name === stream)}
          tab={tab ?? 'overview'}
          onEdit={() => edit(stream)}
          onDelete={() => setDialog({ kind: 'delete', name: stream })}
        />
        {dialogs}
      </section>
    );
  }

  const addButton = (
    <Button leftSection={<IconPlus size={16} />} onClick={() => setDialog({ kind: 'add' })}>
      Add stream
    </Button>
  );

  return (
    <section aria-labelledby="streams-title" data-testid="section-streams">
      <PageHeader titleId="streams-title" title={SECTIONS.streams.title} summary={SECTIONS.streams.summary} actions={addButton} />
      <QueryState query={streams} loading="Loading streams…" />
      {streams.data && rows.length === 0 ? (
        <Stack align="center" gap="xs" p="xl" className="first-run" data-testid="streams-empty">
          <Title order={2} size="h4">
            No streams yet
          </Title>
          <Text c="dimmed" ta="center" maw={520}>
            A stream is a name for a camera or any other source: RTSP, HTTP, ONVIF, ffmpeg devices, WebRTC. Viewers then watch it by name in
            any format.
          </Text>
          {addButton}
        </Stack>
      ) : null}
      {rows.length > 0 ? (
        <Stack gap="sm">
          <TextInput
            aria-label="Filter streams"
            placeholder="Filter by name, codec or state"
            leftSection={<IconSearch size={16} />}
            value={filter}
            onChange={(event) => setFilter(event.currentTarget.value)}
            maw={360}
          />
          {visible.length > 0 ? (
            <StreamsTable rows={visible} onEdit={edit} onDelete={(name) => setDialog({ kind: 'delete', name })} />
          ) : (
            <EmptyState>No stream matches “{filter}”.</EmptyState>
          )}
        </Stack>
      ) : null}
      {dialogs}
    </section>
  );
}
