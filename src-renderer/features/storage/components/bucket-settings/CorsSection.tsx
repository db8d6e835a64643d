import { ActionIcon, Button, Checkbox, Group, NumberInput, Stack, Table, Text, Textarea, TextInput } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { CORS_METHODS, type CorsRule } from '../../../../../src-shared/contract/storage';
import { corsSummary, parseList } from '../../model/bucket-settings-form';
import { SectionError } from './SectionError';

/** CORS rules of the bucket's downloads; the whole list is sent on each change, as Kodo takes it. */
export function CorsSection({ rules, busy, error, onChange }: { rules: CorsRule[]; busy: boolean; error?: string | undefined; onChange(rules: CorsRule[]): void }) {
  const [origins, setOrigins] = useState('');
  const [methods, setMethods] = useState<string[]>(['GET', 'HEAD']);
  const [exposed, setExposed] = useState('');
  const [maxAge, setMaxAge] = useState(0);
  const [touched, setTouched] = useState(false);
  const originList = parseList(origins);
  const problem = originList.length === 0 ? 'give at least one origin (* for any)' : methods.length === 0 ? 'choose at least one method' : undefined;
  return (
    <Stack gap="xs">
      {rules.length > 0 ? (
        <Table data-testid="cors-rules">
          <Table.Tbody>
            {rules.map((rule, index) => (
              <Table.Tr key={index}>
                <Table.Td>
                  <Text size="sm">{corsSummary(rule)}</Text>
                </Table.Td>
                <Table.Td ta="right">
                  <ActionIcon variant="subtle" color="red" aria-label={`Remove CORS rule ${index + 1}`} disabled={busy} onClick={() => onChange(rules.filter((_, i) => i !== index))}>
                    <IconTrash size={16} />
                  </ActionIcon>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : (
        <Text size="sm" c="dimmed">
          No CORS rules: pages on other origins cannot read this bucket's objects with fetch.
        </Text>
      )}
      <form
        aria-label="CORS rule"
        onSubmit={(event) => {
          event.preventDefault();
          setTouched(true);
          if (problem) return;
          onChange([...rules, { allowedOrigins: originList, allowedMethods: methods as CorsRule['allowedMethods'], allowedHeaders: [], exposedHeaders: parseList(exposed), maxAgeSeconds: maxAge }]);
          setOrigins('');
          setExposed('');
          setTouched(false);
        }}
      >
        <Stack gap={6}>
          <Textarea label="Allowed origins" description="One per line, e.g. https://app.example.com, or *" autosize minRows={2} value={origins} onChange={(event) => setOrigins(event.currentTarget.value)} spellCheck={false} />
          <Checkbox.Group label="Allowed methods" value={methods} onChange={setMethods}>
            <Group gap="md" mt={6}>
              {CORS_METHODS.map((m) => (
                <Checkbox key={m} value={m} label={m} />
              ))}
            </Group>
          </Checkbox.Group>
          <Group grow gap="xs">
            <TextInput label="Exposed headers" placeholder="ETag, Content-Length" value={exposed} onChange={(event) => setExposed(event.currentTarget.value)} spellCheck={false} />
            <NumberInput label="Max age (s)" min={0} value={maxAge} onChange={(value) => setMaxAge(typeof value === 'number' ? Math.max(0, Math.floor(value)) : 0)} />
          </Group>
          {touched && problem ? (
            <Text c="red" size="sm" role="alert">
              {problem}
            </Text>
          ) : null}
          <Group justify="flex-end">
            <Button type="submit" variant="light" loading={busy}>
              Add CORS rule
            </Button>
          </Group>
        </Stack>
      </form>
      <SectionError error={error} />
    </Stack>
  );
}
