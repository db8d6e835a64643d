import { Radio, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { SectionError } from './SectionError';

/** Private or public, changed at once (Kodo's `private` API). */
export function AccessSection({
  isPrivate,
  busy,
  error,
  onChange,
}: {
  isPrivate: boolean;
  busy: boolean;
  error?: string | undefined;
  onChange(isPrivate: boolean): void;
}) {
  // The choice shows at once; the service's answer (or its refusal) sets it back to what it holds.
  const [chosen, setChosen] = useState(isPrivate);
  useEffect(() => setChosen(isPrivate), [isPrivate, error]);
  return (
    <Stack gap={6}>
      <Radio.Group
        label="Who can read the objects"
        value={chosen ? 'private' : 'public'}
        onChange={(value) => {
          setChosen(value === 'private');
          onChange(value === 'private');
        }}
      >
        <Stack gap={6} mt={6}>
          <Radio value="private" label="Private" description="Links, downloads and previews are signed and expire" disabled={busy} />
          <Radio value="public" label="Public" description="Anyone with an object's URL can read it" disabled={busy} />
        </Stack>
      </Radio.Group>
      <Text size="xs" c="dimmed">
        The change takes effect at once for every object of the bucket.
      </Text>
      <SectionError error={error} />
    </Stack>
  );
}
