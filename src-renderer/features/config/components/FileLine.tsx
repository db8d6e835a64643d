import { Group, Text } from '@mantine/core';

/** Above the editor: the file's path, whether it has unsaved changes, and the editor's keys. */
export function FileLine({ path, dirty }: { path: string; dirty: boolean }) {
  return (
    <Group justify="space-between" gap="xs">
      <Text size="sm">
        <code data-testid="config-path">{path}</code>
        {dirty ? (
          <Text span fw={600} ml="xs" data-testid="unsaved">
            <span className="unsaved-dot" aria-hidden="true" /> unsaved changes
          </Text>
        ) : null}
      </Text>
      <Text size="xs" c="dimmed">
        Ctrl+S saves · Ctrl+Space completes · hover a key for its meaning · Tab leaves the editor
      </Text>
    </Group>
  );
}
