import { Button, Group, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconPlus, IconSearch } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { LOCAL_RELAY, parseRemoteStreamSource, remoteStreamSource } from '@shared/contract/relays';
import { useRelayStreams, useRelays } from '@renderer/api/use-relays';
import { relayStateText } from '@renderer/features/relays/model/relay-state-text';
import { useStreams } from '../../api/use-streams';
import type { StreamTab } from '../../app/routes';
import { SECTIONS } from '../../app/sections';
import { useUi } from '../../app/ui-store-context';
import { EmptyState } from '../../ui/EmptyState';
import { PageHeader } from '../../ui/PageHeader';
import { QueryState } from '../../ui/QueryState';
import { ResultError } from '../../ui/ResultError';
import { DeleteStreamDialog } from './components/DeleteStreamDialog';
import { StreamDetail } from './components/StreamDetail';
import { StreamForm } from './components/StreamForm';
import { StreamsTable } from './components/StreamsTable';
import type { EditedStream } from './model/stream-form';
import { allStreamRows, matchesFilter } from './model/stream-rows';

/** The edited stream is taken when the dialog opens: live stats that refresh the list every second must not reset the form. */
type Dialog = { kind: 'add' } | { kind: 'edit'; stream: EditedStream } | { kind: 'delete'; relay: string; name: string } | undefined;

const ALL = 'all';
/** `door` → local door; `relay://north/yard` → north's yard. */
const locate = (id: string) => parseRemoteStreamSource(id) ?? { relay: LOCAL_RELAY, name: id };

/**
 * The stream list (`#/streams`) or one stream (`#/streams/<name>[/links]`, a remote relay's as
 * `#/streams/relay://north/yard`), every relay's, with add, edit and delete on the relay it is on.
 */
export function StreamsView({ stream, tab }: { stream?: string; tab?: StreamTab }) {
  const streams = useStreams();
  const relays = useRelays();
  const relayStreams = useRelayStreams();
  const navigate = useUi((s) => s.navigate);
  const [dialog, setDialog] = useState<Dialog>();
  const [filter, setFilter] = useState('');
  const [relayFilter, setRelayFilter] = useState(ALL);
  const list = useMemo(() => streams.data ?? [], [streams.data]);
  const remote = useMemo(() => relayStreams.data ?? [], [relayStreams.data]);
  const relayList = useMemo(() => relays.data ?? [], [relays.data]);
  const rows = useMemo(() => allStreamRows(list, remote, relayList, (relay) => relayStateText(relay)), [list, remote, relayList]);
  const shownRelay =
    relayFilter === ALL || relayList.some((relay) => relay.name === relayFilter) || relayFilter === LOCAL_RELAY ? relayFilter : ALL;
  const visible = useMemo(() => rows.filter((row) => matchesFilter(row, filter, shownRelay)), [rows, filter, shownRelay]);
  const hasRemote = relayList.length > 0;
  const reachable = relayList.filter((relay) => relay.state === 'reachable').map((relay) => relay.name);

  const summaryOf = (id: string) => {
    const { relay, name } = locate(id);
    const on = relay === LOCAL_RELAY ? list : (remote.find((entry) => entry.relay === relay)?.streams ?? []);
    return on.find((s) => s.name === name);
  };
  const namesOn = (relay: string) =>
    (relay === LOCAL_RELAY ? list : (remote.find((entry) => entry.relay === relay)?.streams ?? [])).map((s) => s.name);
  const edit = (id: string) => {
    const { relay, name } = locate(id);
    const sources = summaryOf(id)?.sources ?? [];
    setDialog({ kind: 'edit', stream: relay === LOCAL_RELAY ? { name, sources } : { relay, name, sources } });
  };
  const idOf = (relay: string | undefined, name: string) => (relay && relay !== LOCAL_RELAY ? remoteStreamSource(relay, name) : name);

  const dialogs = (
    <>
      <StreamForm
        opened={dialog?.kind === 'add' || dialog?.kind === 'edit'}
        editing={dialog?.kind === 'edit' ? dialog.stream : undefined}
        relays={reachable}
        namesOn={namesOn}
        onClose={() => setDialog(undefined)}
        onSaved={(name) => {
          const relay = dialog?.kind === 'edit' ? dialog.stream.relay : undefined;
          setDialog(undefined);
          // A renamed stream's page moves with it.
          if (stream && idOf(relay, name) !== stream) navigate({ section: 'streams', stream: idOf(relay, name) });
        }}
      />
      <DeleteStreamDialog
        target={dialog?.kind === 'delete' ? { relay: dialog.relay, name: dialog.name } : undefined}
        onClose={() => setDialog(undefined)}
        onDeleted={() => {
          setDialog(undefined);
          if (stream) navigate({ section: 'streams' });
        }}
      />
    </>
  );
  const relaysError = relays.error ?? relayStreams.error;
  const relaysAlert = relaysError ? <ResultError error={relaysError} title="The remote relays’ streams could not be read" /> : null;

  if (stream && streams.data) {
    return (
      <section data-testid="section-streams">
        {relaysAlert}
        <StreamDetail
          id={stream}
          stream={summaryOf(stream)}
          relayProblem={rows.find((row) => row.id === stream)?.relayProblem}
          tab={tab ?? 'overview'}
          onEdit={() => edit(stream)}
          onDelete={() => setDialog({ kind: 'delete', ...locate(stream) })}
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
      {relaysAlert}
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
          <Group gap="sm">
            <TextInput
              aria-label="Filter streams"
              placeholder="Filter by name, codec or state"
              leftSection={<IconSearch size={16} />}
              value={filter}
              onChange={(event) => setFilter(event.currentTarget.value)}
              maw={360}
              style={{ flex: 1 }}
            />
            {hasRemote ? (
              <Select
                aria-label="Relay"
                value={shownRelay}
                onChange={(value) => setRelayFilter(value ?? ALL)}
                data={[
                  { value: ALL, label: 'All relays' },
                  { value: LOCAL_RELAY, label: LOCAL_RELAY },
                  ...relayList.map((relay) => ({ value: relay.name, label: relay.name })),
                ]}
                allowDeselect={false}
                w={160}
              />
            ) : null}
          </Group>
          {visible.length > 0 ? (
            <StreamsTable
              rows={visible}
              showRelay={hasRemote}
              onEdit={edit}
              onDelete={(id) => setDialog({ kind: 'delete', ...locate(id) })}
            />
          ) : (
            <EmptyState>
              No stream matches “{filter}”{shownRelay === ALL ? '' : ` on ${shownRelay}`}.
            </EmptyState>
          )}
        </Stack>
      ) : null}
      {dialogs}
    </section>
  );
}
