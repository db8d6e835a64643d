import { Anchor, Badge, Button, Group, Stack, Tabs, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconExternalLink, IconPencil, IconTrash } from '@tabler/icons-react';
import type { StreamSummary } from '@shared/contract/relay';
import { parseRemoteStreamSource } from '@shared/contract/relays';
import { printRoute, type StreamTab } from '@renderer/app/routes';
import { useUi } from '@renderer/app/ui-store-context';
import { streamState } from '../model/stream-rows';
import { StateBadge } from './StateBadge';
import { StreamActivity } from './StreamActivity';
import { StreamLinks } from './StreamLinks';

export interface StreamDetailProps {
  /** The stream's name on the embedded relay, or a remote relay's stream as its `relay://` source (what its links and pop-out play). */
  id: string;
  /** Its relay's state in words while that relay is not reachable. */
  relayProblem?: string;
  stream: StreamSummary | undefined;
  tab: StreamTab;
  onEdit(): void;
  onDelete(): void;
}

/**
 * One stream: its sources and viewers (live), and every link it can be watched by. A remote
 * relay's stream gets the embedded relay's links with its `relay://` source: they play through
 * this computer, whose relay pulls the stream from the remote one.
 */
export function StreamDetail({ id, relayProblem, stream, tab, onEdit, onDelete }: StreamDetailProps) {
  const navigate = useUi((s) => s.navigate);
  const remote = parseRemoteStreamSource(id);
  const name = remote?.name ?? id;
  const back = (
    <Anchor href={printRoute({ section: 'streams' })} size="sm">
      <Group gap={4} component="span">
        <IconArrowLeft size={14} aria-hidden="true" />
        All streams
      </Group>
    </Anchor>
  );
  if (!stream) {
    return (
      <Stack gap="sm" data-testid="stream-missing">
        {back}
        <Title order={1} size="h2">
          No stream named {name}
          {remote ? ` on ${remote.relay}` : ''}
        </Title>
        <Text c="dimmed">It may have been deleted or renamed in the config file.</Text>
      </Stack>
    );
  }
  return (
    <Stack gap="md">
      {back}
      <Group justify="space-between" align="flex-start">
        <Group gap="sm">
          <Title order={1} size="h2">
            {name}
          </Title>
          {remote ? (
            <Badge variant="outline" color="gray" tt="none" aria-label={`relay ${remote.relay}`}>
              {remote.relay}
            </Badge>
          ) : null}
          <StateBadge state={streamState(stream).state} />
        </Group>
        <Group gap="xs">
          <Button
            component="a"
            href={printRoute({ section: 'camera', stream: id })}
            target="_blank"
            variant="default"
            leftSection={<IconExternalLink size={16} />}
          >
            Watch
          </Button>
          <Button variant="default" leftSection={<IconPencil size={16} />} onClick={onEdit}>
            Edit
          </Button>
          <Button variant="default" color="red" leftSection={<IconTrash size={16} />} onClick={onDelete}>
            Delete
          </Button>
        </Group>
      </Group>
      {relayProblem ? (
        <Text c="red.8" size="sm" data-testid="relay-problem">
          {relayProblem}
        </Text>
      ) : null}
      <Tabs
        value={tab}
        onChange={(value) => navigate({ section: 'streams', stream: id, tab: (value as StreamTab) ?? 'overview' })}
        keepMounted={false}
      >
        <Tabs.List>
          <Tabs.Tab value="overview">Activity</Tabs.Tab>
          <Tabs.Tab value="links">Links</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="overview" pt="md">
          <StreamActivity stream={stream} />
        </Tabs.Panel>
        <Tabs.Panel value="links" pt="md">
          <StreamLinks stream={id} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
