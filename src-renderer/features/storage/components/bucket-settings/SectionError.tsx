import { Text } from '@mantine/core';

/** What the service said when it refused a change of this section. */
export function SectionError({ error }: { error?: string | undefined }) {
  if (!error) return null;
  return (
    <Text c="red" size="sm" role="alert">
      {error}
    </Text>
  );
}
