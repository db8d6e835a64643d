import { Badge, Divider, Drawer, Group, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { KODO_REGIONS } from '@shared/contract/storage';
import { QueryState } from '@renderer/ui/QueryState';
import { useBucketSettings } from '../../use-bucket-settings';
import { AccessSection } from './AccessSection';
import { CorsSection } from './CorsSection';
import { DomainsSection } from './DomainsSection';
import { LifecycleSection } from './LifecycleSection';
import { RefererSection } from './RefererSection';

const regionName = (region: string) => (region in KODO_REGIONS ? `${KODO_REGIONS[region as keyof typeof KODO_REGIONS]} · ` : '');

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section aria-label={title}>
      <Title order={3} size="h5" mb={6}>
        {title}
      </Title>
      {children}
    </section>
  );
}

/** A bucket's settings: access, domains, lifecycle, CORS and referer rules, each saved on its own. */
export function BucketSettingsDrawer({
  accountId,
  bucket,
  opened,
  onClose,
}: {
  accountId: string;
  bucket: string;
  opened: boolean;
  onClose(): void;
}) {
  const s = useBucketSettings(accountId, bucket, opened);
  const data = s.settings.data;
  return (
    <Drawer opened={opened} onClose={onClose} position="right" size="lg" title={`Settings of ${bucket}`} data-testid="bucket-settings">
      <QueryState query={s.settings} loading="Loading the bucket's settings…" errorTitle="The settings could not be read" />
      {data ? (
        <Stack gap="lg">
          <Group gap="xs">
            <Text size="sm">Region</Text>
            <Badge variant="light" tt="none">
              {data.region ? `${regionName(data.region)}${data.region}` : 'unknown'}
            </Badge>
          </Group>
          <Section title="Access">
            <AccessSection
              isPrivate={data.private}
              busy={s.setAccess.isPending}
              error={s.setAccess.error?.message}
              onChange={(value) => s.setAccess.mutate(value)}
            />
          </Section>
          <Divider />
          <Section title="Domains">
            <DomainsSection
              domains={data.domains}
              busy={s.bindDomain.isPending || s.unbindDomain.isPending}
              error={(s.bindDomain.error ?? s.unbindDomain.error)?.message}
              onBind={(domain) => (s.unbindDomain.reset(), s.bindDomain.mutate(domain))}
              onUnbind={(domain) => (s.bindDomain.reset(), s.unbindDomain.mutate(domain))}
            />
          </Section>
          <Divider />
          <Section title="Lifecycle rules">
            <LifecycleSection
              rules={data.lifecycle}
              busy={s.saveRule.isPending || s.deleteRule.isPending}
              error={(s.saveRule.error ?? s.deleteRule.error)?.message}
              onSave={(rule) => (s.deleteRule.reset(), s.saveRule.mutate(rule))}
              onDelete={(name) => (s.saveRule.reset(), s.deleteRule.mutate(name))}
            />
          </Section>
          <Divider />
          <Section title="CORS rules">
            <CorsSection
              rules={data.cors}
              busy={s.setCors.isPending}
              error={s.setCors.error?.message}
              onChange={(rules) => s.setCors.mutate(rules)}
            />
          </Section>
          <Divider />
          <Section title="Referer rules">
            <RefererSection
              referer={data.referer}
              busy={s.setReferer.isPending}
              error={s.setReferer.error?.message}
              onSave={(rule) => s.setReferer.mutate(rule)}
            />
          </Section>
        </Stack>
      ) : null}
    </Drawer>
  );
}
