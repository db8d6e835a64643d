import { ActionIcon, Badge, Button, Group, Stack, Table, Text, TextInput } from '@mantine/core';
import { IconLinkOff } from '@tabler/icons-react';
import { useState } from 'react';
import type { BucketSettings } from '@shared/contract/storage';
import { SectionError } from './SectionError';

const DOMAIN = /^(\*\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

/** The bucket's download domains: the test domain it was given, and the user's own, bound and unbound here. */
export function DomainsSection({
  domains,
  busy,
  error,
  onBind,
  onUnbind,
}: {
  domains: BucketSettings['domains'];
  busy: boolean;
  error?: string | undefined;
  onBind(domain: string): void;
  onUnbind(domain: string): void;
}) {
  const [domain, setDomain] = useState('');
  const typed = domain.trim().toLowerCase();
  const problem = typed !== '' && !DOMAIN.test(typed) ? 'a domain looks like cdn.example.com' : undefined;
  return (
    <Stack gap="xs">
      {domains.length > 0 ? (
        <Table data-testid="bucket-domains">
          <Table.Tbody>
            {domains.map((d) => (
              <Table.Tr key={d.domain} data-domain={d.domain}>
                <Table.Td>
                  <code>{d.domain}</code>{' '}
                  {d.test ? (
                    <Badge size="xs" variant="light">
                      Test domain
                    </Badge>
                  ) : null}
                </Table.Td>
                <Table.Td ta="right">
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={`Unbind ${d.domain}`}
                    disabled={busy}
                    onClick={() => onUnbind(d.domain)}
                  >
                    <IconLinkOff size={16} />
                  </ActionIcon>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : (
        <Text size="sm" c="orange" role="status">
          No domain: nothing in this bucket can be downloaded, previewed or shared until one is bound.
        </Text>
      )}
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (typed && !problem) onBind(typed);
          setDomain(problem ? domain : '');
        }}
      >
        <Group align="flex-start" gap="xs">
          <TextInput
            label="Domain to bind"
            placeholder="cdn.example.com"
            value={domain}
            onChange={(event) => setDomain(event.currentTarget.value)}
            error={problem}
            spellCheck={false}
            style={{ flex: 1 }}
          />
          <Button type="submit" mt={25} loading={busy} disabled={typed === ''}>
            Bind
          </Button>
        </Group>
      </form>
      <Text size="xs" c="dimmed">
        On Kodo a custom domain serves the bucket once its DNS has a CNAME to the address Kodo gives; the local emulator serves it at once.
      </Text>
      <SectionError error={error} />
    </Stack>
  );
}
