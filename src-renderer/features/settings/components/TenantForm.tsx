import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Anchor, Button, Group, List, Modal, PasswordInput, Radio, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { newTenantSchema, type DirectoryConnectionEntry, type NewTenant, type TenantSignInKind } from '@shared/contract/directory-accounts';
import { EMPTY_TENANT, registrationNeeds, TENANT_SIGN_IN_CHOICES, tenantFieldErrors, tenantToSend } from '../model/tenant-form';

interface TenantFormProps {
  opened: boolean;
  onClose(): void;
  /** Adds the tenant in main (which seals the secret and makes it the connection in use). */
  add(tenant: NewTenant): Promise<DirectoryConnectionEntry>;
  /** The refusal of the last add, e.g. the token endpoint's answer to a wrong secret. */
  error: Error | null;
  onAdded(entry: DirectoryConnectionEntry): void;
}

/**
 * Adds a Microsoft Entra tenant: where it is (tenant id or domain), which app registration the
 * console signs in with, and how. Checked with the same schema main applies; a client secret
 * goes to main, is sealed there and never comes back.
 */
export function TenantForm({ opened, onClose, add, error, onAdded }: TenantFormProps) {
  const form = useForm<NewTenant>({
    resolver: zodResolver(newTenantSchema),
    defaultValues: EMPTY_TENANT,
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const [advanced, setAdvanced] = useState(false);
  const { reset } = form;
  useEffect(() => {
    if (!opened) return;
    reset(EMPTY_TENANT);
    setAdvanced(false);
  }, [opened, reset]);

  const signIn = form.watch('signIn');
  const errors = form.formState.errors;
  const submit = form.handleSubmit(async (values) => {
    await add(tenantToSend(values)).then(onAdded, (failure: unknown) => {
      for (const { field, message } of tenantFieldErrors(failure)) form.setError(field, { type: 'server', message }, { shouldFocus: true });
    });
  });
  // A problem in a hidden field opens its part of the form.
  useEffect(() => {
    if (errors.authorityHost || errors.graphBaseUrl || errors.caFile) setAdvanced(true);
  }, [errors.authorityHost, errors.graphBaseUrl, errors.caFile]);
  // A refusal shown at its field needs no banner as well.
  const bannerError = error && tenantFieldErrors(error).length === 0 ? error : null;

  return (
    <Modal opened={opened} onClose={onClose} title="Add a Microsoft Entra tenant" size="lg">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <SimpleGrid cols={2}>
            <TextInput
              label="Tenant"
              description="Directory (tenant) id or a domain"
              placeholder="contoso.onmicrosoft.com"
              required
              spellCheck={false}
              autoComplete="off"
              error={errors.tenant?.message}
              {...form.register('tenant')}
              data-autofocus
            />
            <TextInput
              label="Name"
              description="Optional; shown in the list"
              placeholder="Contoso"
              error={errors.name?.message}
              {...form.register('name')}
            />
          </SimpleGrid>
          <TextInput
            label="Application (client) id"
            description="Of the app registration the console signs in with"
            placeholder="11111111-2222-3333-4444-555555555555"
            required
            spellCheck={false}
            autoComplete="off"
            error={errors.clientId?.message}
            {...form.register('clientId')}
          />
          <Controller
            control={form.control}
            name="signIn"
            render={({ field }) => (
              <Radio.Group label="Sign-in" value={field.value} onChange={(value) => field.onChange(value as TenantSignInKind)} required>
                <Stack gap="xs" mt={4}>
                  {TENANT_SIGN_IN_CHOICES.map((choice) => (
                    <Radio key={choice.value} value={choice.value} label={choice.label} description={choice.description} />
                  ))}
                </Stack>
              </Radio.Group>
            )}
          />
          {signIn === 'clientCredentials' ? (
            <PasswordInput
              label="Client secret"
              description="Its value, sealed on this computer and never shown again"
              required
              autoComplete="off"
              error={errors.clientSecret?.message}
              {...form.register('clientSecret')}
            />
          ) : null}
          <Alert variant="outline" color="gray" title="The app registration needs" role="note">
            <List size="sm" spacing={2}>
              {registrationNeeds(signIn).map((need) => (
                <List.Item key={need}>{need}</List.Item>
              ))}
            </List>
          </Alert>
          <Anchor component="button" type="button" size="sm" onClick={() => setAdvanced((open) => !open)} aria-expanded={advanced}>
            {advanced ? 'Hide' : 'Show'} national cloud, test addresses and a CA file
          </Anchor>
          {advanced ? (
            <>
              <SimpleGrid cols={2}>
                <TextInput
                  label="Sign-in address"
                  description="Entra's login host"
                  spellCheck={false}
                  error={errors.authorityHost?.message}
                  {...form.register('authorityHost')}
                />
                <TextInput
                  label="Graph address"
                  description="Microsoft Graph v1.0"
                  spellCheck={false}
                  error={errors.graphBaseUrl?.message}
                  {...form.register('graphBaseUrl')}
                />
              </SimpleGrid>
              <TextInput
                label="CA certificate file"
                description="Optional: the full path of a PEM file on this computer, for a network whose proxy inspects TLS. The console's own emulators are trusted without one."
                placeholder="/etc/ssl/certs/corporate-ca.pem"
                spellCheck={false}
                autoComplete="off"
                error={errors.caFile?.message}
                {...form.register('caFile')}
              />
            </>
          ) : null}
          {bannerError ? (
            <Alert color="red" role="alert" title="The tenant was not added">
              {bannerError.message.replace(/^the tenant was not added: /, '')}
            </Alert>
          ) : null}
          <Text size="xs" c="dimmed">
            The new tenant becomes the connection the directory pages and the calendar sync use
            {signIn === 'clientCredentials' ? '; its secret is tried first' : '; sign in to it below'}.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={form.formState.isSubmitting}>
              {signIn === 'clientCredentials' ? 'Check and add' : 'Add tenant'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
