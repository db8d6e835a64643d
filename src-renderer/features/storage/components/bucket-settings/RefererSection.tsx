import { Button, Checkbox, Group, Radio, Stack, Text, Textarea } from '@mantine/core';
import { useEffect, useState } from 'react';
import type { RefererRule } from '@shared/contract/storage';
import { parseList } from '../../model/bucket-settings-form';
import { SectionError } from './SectionError';

/** Referer anti-leech: off, an allow list or a deny list of hosts; saved as a whole. */
export function RefererSection({
  referer,
  busy,
  error,
  onSave,
}: {
  referer: RefererRule;
  busy: boolean;
  error?: string | undefined;
  onSave(rule: RefererRule): void;
}) {
  const [mode, setMode] = useState(referer.mode);
  const [patterns, setPatterns] = useState(referer.patterns.join('\n'));
  const [allowEmpty, setAllowEmpty] = useState(referer.allowEmpty);
  // What the service holds after a save (or another window's change) is shown again.
  useEffect(() => {
    setMode(referer.mode);
    setPatterns(referer.patterns.join('\n'));
    setAllowEmpty(referer.allowEmpty);
  }, [referer]);
  const list = parseList(patterns);
  const problem = mode !== 'off' && list.length === 0 ? 'an allow or deny list needs at least one pattern' : undefined;
  return (
    <form
      aria-label="Referer rule"
      onSubmit={(event) => {
        event.preventDefault();
        if (!problem) onSave({ mode, patterns: mode === 'off' ? [] : list, allowEmpty });
      }}
    >
      <Stack gap={6}>
        <Radio.Group label="Referer anti-leech" value={mode} onChange={(value) => setMode(value as RefererRule['mode'])}>
          <Group gap="md" mt={6}>
            <Radio value="off" label="Off" />
            <Radio value="allow" label="Allow list" />
            <Radio value="deny" label="Deny list" />
          </Group>
        </Radio.Group>
        {mode !== 'off' ? (
          <>
            <Textarea
              label="Referer patterns"
              description="One per line: example.com, *.example.com or *"
              autosize
              minRows={2}
              value={patterns}
              onChange={(event) => setPatterns(event.currentTarget.value)}
              error={problem}
              spellCheck={false}
            />
            <Checkbox
              label="Allow requests without a Referer"
              checked={allowEmpty}
              onChange={(event) => setAllowEmpty(event.currentTarget.checked)}
            />
          </>
        ) : (
          <Text size="sm" c="dimmed">
            Any site may link to this bucket's objects.
          </Text>
        )}
        <Group justify="flex-end">
          <Button type="submit" variant="light" loading={busy} disabled={Boolean(problem)}>
            Save referer rule
          </Button>
        </Group>
        <SectionError error={error} />
      </Stack>
    </form>
  );
}
