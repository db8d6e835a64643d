import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Group, Modal, PasswordInput, SegmentedControl, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { KODO_REGIONS, newAccountSchema, type NewAccount, type StorageAccount } from '@shared/contract/storage';
import { serviceFilter } from '@renderer/api/service-query';
import { useServiceMutation } from '@renderer/api/use-service-query';

type Where = 'region' | 'endpoints';
const ENDPOINTS = ['uc', 'rs', 'rsf', 'api', 'up', 'io'] as const;
const EMPTY: NewAccount = { name: '', accessKey: '', secretKey: '', region: 'z0' };

/**
 * Adds a Kodo account. The keys are tried by listing buckets before anything is kept; the
 * SecretKey goes to main, is sealed in data_dir and never comes back to this window.
 */
export function AccountForm({ opened, onClose, onAdded }: { opened: boolean; onClose(): void; onAdded(account: StorageAccount): void }) {
  const queryClient = useQueryClient();
  const [where, setWhere] = useState<Where>('region');
  const form = useForm<NewAccount>({ resolver: zodResolver(newAccountSchema), defaultValues: EMPTY, mode: 'onTouched' });
  const add = useServiceMutation('storage', 'addAccount', {
    onSuccess: () => queryClient.invalidateQueries(serviceFilter('storage', 'listAccounts')),
  });
  const { reset } = form;
  const { reset: resetAdd } = add;
  useEffect(() => {
    if (!opened) return;
    reset(EMPTY);
    resetAdd();
    setWhere('region');
  }, [opened, reset, resetAdd]);

  const chooseWhere = (value: string) => {
    setWhere(value as Where);
    // One of the two, never both: the schema refuses a region with endpoints.
    if (value === 'region') {
      form.setValue('endpoints', undefined);
      form.setValue('region', 'z0');
    } else {
      form.setValue('region', undefined);
      form.setValue('endpoints', { uc: '' });
    }
  };

  const submit = form.handleSubmit(async (values) => {
    const endpoints = values.endpoints ? Object.fromEntries(Object.entries(values.endpoints).filter(([, url]) => url)) : undefined;
    const account = {
      ...values,
      name: values.name || undefined,
      ...(endpoints ? { endpoints: endpoints as NewAccount['endpoints'] } : {}),
    };
    await add.mutateAsync(account).then(onAdded, () => undefined);
  });
  const errors = form.formState.errors;

  return (
    <Modal opened={opened} onClose={onClose} title="Add a Kodo account" size="lg">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            The keys are checked by listing the account's buckets before they are kept. The SecretKey is encrypted on this computer and
            never shown again.
          </Text>
          <TextInput
            label="Name"
            description="Optional; shown in the account list"
            placeholder="Production"
            error={errors.name?.message}
            {...form.register('name')}
          />
          <SimpleGrid cols={2}>
            <TextInput
              label="AccessKey"
              required
              autoComplete="off"
              spellCheck={false}
              error={errors.accessKey?.message}
              {...form.register('accessKey')}
              data-autofocus
            />
            <PasswordInput
              label="SecretKey"
              required
              autoComplete="off"
              error={errors.secretKey?.message}
              {...form.register('secretKey')}
            />
          </SimpleGrid>
          <SegmentedControl
            aria-label="Where the account lives"
            value={where}
            onChange={chooseWhere}
            data={[
              { label: 'Public region', value: 'region' },
              { label: 'Private deployment', value: 'endpoints' },
            ]}
          />
          {where === 'region' ? (
            <Select
              label="Region"
              data={Object.entries(KODO_REGIONS).map(([value, label]) => ({ value, label: `${label} (${value})` }))}
              value={form.watch('region') ?? null}
              onChange={(value) => form.setValue('region', (value ?? undefined) as NewAccount['region'], { shouldValidate: true })}
              allowDeselect={false}
              error={errors.region?.message}
            />
          ) : (
            <SimpleGrid cols={2}>
              {ENDPOINTS.map((service) => (
                <TextInput
                  key={service}
                  label={service === 'uc' ? 'uc (region query) address' : `${service} address`}
                  description={service === 'uc' ? 'Required' : 'Optional: the uc address answers for it'}
                  placeholder={`http://${service}.example.com`}
                  spellCheck={false}
                  required={service === 'uc'}
                  error={errors.endpoints?.[service]?.message ?? (service === 'uc' ? errors.region?.message : undefined)}
                  // An empty optional address is no address, not an invalid URL.
                  {...form.register(`endpoints.${service}`, {
                    setValueAs: (value: string) => (value === '' && service !== 'uc' ? undefined : value),
                  })}
                />
              ))}
            </SimpleGrid>
          )}
          {add.isError ? (
            <Alert color="red" role="alert" title="The account was not added">
              {add.error.message.replace(/^the account was not added: /, '')}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={form.formState.isSubmitting}>
              Check and add
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
