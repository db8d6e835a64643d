import { Group, Loader, Text } from '@mantine/core';

/** A small spinner with what is being loaded, in words: never a blank area while data comes. */
export function LoadingLine({ children }: { children: string }) {
  return (
    <Group gap="xs" role="status">
      <Loader size="sm" />
      <Text c="dimmed">{children}</Text>
    </Group>
  );
}
