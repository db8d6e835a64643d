import { Button, Group, NumberInput, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import type { LifecycleRule } from '@shared/contract/storage';
import { lifecycleProblem, lifecycleSummary } from '../../model/bucket-settings-form';
import { RuleTable } from './RuleTable';
import { SectionError } from './SectionError';

const EMPTY: LifecycleRule = { name: '', prefix: '', toInfrequentAfterDays: 0, toArchiveAfterDays: 0, deleteAfterDays: 0 };
const days = (value: string | number) => (typeof value === 'number' ? Math.max(0, Math.floor(value)) : 0);

/** Lifecycle rules: listed with what they do; one added (or replaced, by name) from the form. */
export function LifecycleSection({
  rules,
  busy,
  error,
  onSave,
  onDelete,
}: {
  rules: LifecycleRule[];
  busy: boolean;
  error?: string | undefined;
  onSave(rule: LifecycleRule): void;
  onDelete(name: string): void;
}) {
  const [rule, setRule] = useState<LifecycleRule>(EMPTY);
  const [touched, setTouched] = useState(false);
  const problem = lifecycleProblem(rule);
  const set = (patch: Partial<LifecycleRule>) => setRule((r) => ({ ...r, ...patch }));
  return (
    <Stack gap="xs">
      <RuleTable
        testId="lifecycle-rules"
        busy={busy}
        empty="No lifecycle rules: objects stay until deleted."
        rows={rules.map((r) => ({
          key: r.name,
          name: r.name,
          content: (
            <>
              <Text size="sm" fw={500}>
                {r.name}
              </Text>
              <Text size="xs" c="dimmed">
                {lifecycleSummary(r)}
              </Text>
            </>
          ),
          removeLabel: `Delete rule ${r.name}`,
          onRemove: () => onDelete(r.name),
        }))}
      />
      <form
        aria-label="Lifecycle rule"
        onSubmit={(event) => {
          event.preventDefault();
          setTouched(true);
          if (problem) return;
          onSave(rule);
          setRule(EMPTY);
          setTouched(false);
        }}
      >
        <Stack gap={6}>
          <Group grow gap="xs">
            <TextInput
              label="Rule name"
              value={rule.name}
              onChange={(event) => set({ name: event.currentTarget.value })}
              spellCheck={false}
            />
            <TextInput
              label="Key prefix"
              placeholder="every object"
              value={rule.prefix}
              onChange={(event) => set({ prefix: event.currentTarget.value })}
              spellCheck={false}
            />
          </Group>
          <Group grow gap="xs">
            <NumberInput
              label="To Infrequent after (days)"
              min={0}
              value={rule.toInfrequentAfterDays}
              onChange={(value) => set({ toInfrequentAfterDays: days(value) })}
            />
            <NumberInput
              label="To Archive after (days)"
              min={0}
              value={rule.toArchiveAfterDays}
              onChange={(value) => set({ toArchiveAfterDays: days(value) })}
            />
            <NumberInput
              label="Delete after (days)"
              min={0}
              value={rule.deleteAfterDays}
              onChange={(value) => set({ deleteAfterDays: days(value) })}
            />
          </Group>
          {touched && problem ? (
            <Text c="red" size="sm" role="alert">
              {problem}
            </Text>
          ) : null}
          <Group justify="flex-end">
            <Button type="submit" variant="light" loading={busy}>
              {rules.some((r) => r.name === rule.name) ? 'Replace rule' : 'Add rule'}
            </Button>
          </Group>
        </Stack>
      </form>
      <SectionError error={error} />
    </Stack>
  );
}
