import { Button, Checkbox, Group, NumberInput, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import { CORS_METHODS, type CorsRule } from '@shared/contract/storage';
import { corsSummary, parseList } from '../../model/bucket-settings-form';
import { RuleTable } from './RuleTable';
import { SectionError } from './SectionError';

/** CORS rules of the bucket's downloads; the whole list is sent on each change, as Kodo takes it. */
export function CorsSection({
  rules,
  busy,
  error,
  onChange,
}: {
  rules: CorsRule[];
  busy: boolean;
  error?: string | undefined;
  onChange(rules: CorsRule[]): void;
}) {
  const [origins, setOrigins] = useState('');
  const [methods, setMethods] = useState<string[]>(['GET', 'HEAD']);
  const [exposed, setExposed] = useState('');
  const [maxAge, setMaxAge] = useState(0);
  const [touched, setTouched] = useState(false);
  const originList = parseList(origins);
  const problem =
    originList.length === 0 ? 'give at least one origin (* for any)' : methods.length === 0 ? 'choose at least one method' : undefined;
  return (
    <Stack gap="xs">
      <RuleTable
        testId="cors-rules"
        busy={busy}
        empty="No CORS rules: pages on other origins cannot read this bucket's objects with fetch."
        rows={rules.map((rule, index) => ({
          key: String(index),
          content: <Text size="sm">{corsSummary(rule)}</Text>,
          removeLabel: `Remove CORS rule ${index + 1}`,
          onRemove: () => onChange(rules.filter((_, i) => i !== index)),
        }))}
      />
      <form
        aria-label="CORS rule"
        onSubmit={(event) => {
          event.preventDefault();
          setTouched(true);
          if (problem) return;
          onChange([
            ...rules,
            {
              allowedOrigins: originList,
              allowedMethods: methods as CorsRule['allowedMethods'],
              allowedHeaders: [],
              exposedHeaders: parseList(exposed),
              maxAgeSeconds: maxAge,
            },
          ]);
          setOrigins('');
          setExposed('');
          setTouched(false);
        }}
      >
        <Stack gap={6}>
          <Textarea
            label="Allowed origins"
            description="One per line, e.g. https://app.example.com, or *"
            autosize
            minRows={2}
            value={origins}
            onChange={(event) => setOrigins(event.currentTarget.value)}
            spellCheck={false}
          />
          <Checkbox.Group label="Allowed methods" value={methods} onChange={setMethods}>
            <Group gap="md" mt={6}>
              {CORS_METHODS.map((m) => (
                <Checkbox key={m} value={m} label={m} />
              ))}
            </Group>
          </Checkbox.Group>
          <Group grow gap="xs">
            <TextInput
              label="Exposed headers"
              placeholder="ETag, Content-Length"
              value={exposed}
              onChange={(event) => setExposed(event.currentTarget.value)}
              spellCheck={false}
            />
            <NumberInput
              label="Max age (s)"
              min={0}
              value={maxAge}
              onChange={(value) => setMaxAge(typeof value === 'number' ? Math.max(0, Math.floor(value)) : 0)}
            />
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
