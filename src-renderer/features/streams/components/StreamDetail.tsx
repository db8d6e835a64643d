import { Anchor, Button, Group, Stack, Tabs, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconExternalLink, IconPencil, IconTrash } from '@tabler/icons-react';
import type { StreamSummary } from '@shared/contract/relay';
import { printRoute, type StreamTab } from '@renderer/app/routes';
import { useUi } from '@renderer/app/ui-store-context';
import { streamState } from '../model/stream-rows';
import { StateBadge } from './StateBadge';
import { StreamActivity } from './StreamActivity';
import { StreamLinks } from './StreamLinks';

export interface StreamDetailProps {
  name: string;
  stream: StreamSummary | undefined;
  tab: StreamTab;
  onEdit(): void;
  onDelete(): void;
}

/** One stream: its sources and viewers (live), and every link it can be watched by. */
export function StreamDetail({ name, stream, tab, onEdit, onDelete }: StreamDetailProps) {
  const navigate = useUi((s) => s.navigate);
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
          <StateBadge state={streamState(stream).state} />
        </Group>
        <Group gap="xs">
          <Button
            component="a"
            href={printRoute({ section: 'camera', stream: name })}
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
      <Tabs
        value={tab}
        onChange={(value) => navigate({ section: 'streams', stream: name, tab: (value as StreamTab) ?? 'overview' })}
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
          <StreamLinks stream={name} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
