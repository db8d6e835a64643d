import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, Modal, PasswordInput, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import type { RelayInfo } from '@shared/contract/relays';
import { ResultError } from '@renderer/ui/ResultError';
import {
  EMPTY_RELAY,
  addressWithoutLogin,
  relayFieldError,
  relayFormSchema,
  relayFormValues,
  toAddInput,
  toEditInput,
  toTestInput,
  type RelayFormValues,
} from '../model/relay-form';
import { useRelayActions } from '../use-relay-actions';
import { RelayTestResult } from './RelayTestResult';

interface RelayFormProps {
  opened: boolean;
  /** Undefined adds a relay; a relay changes its name, address or login. */
  editing?: RelayInfo;
  onClose(): void;
  onSaved(): void;
}

/**
 * Adds or changes a remote relay: a name, the address of its API and, when it asks for one, a
 * login that main seals and never sends back. **Test** asks the address what it is before
 * anything is saved; main tests it again on add and refuses one that does not answer, and the
 * refusal shows at the field it is about.
 */
export function RelayForm({ opened, editing, onClose, onSaved }: RelayFormProps) {
  const { add, edit, test } = useRelayActions();
  const form = useForm<RelayFormValues>({
    resolver: zodResolver(relayFormSchema),
    defaultValues: EMPTY_RELAY,
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const { reset } = form;
  const { reset: resetTest } = test;
  useEffect(() => {
    if (!opened) return;
    reset(editing ? relayFormValues(editing) : EMPTY_RELAY);
    resetTest();
  }, [opened, editing, reset, resetTest]);
  // A Test result speaks of what was tested: once the name, address or login change it no longer does.
  const { watch } = form;
  useEffect(() => {
    const typed = watch((_values, { name }) => {
      if (name) resetTest();
    });
    return () => typed.unsubscribe();
  }, [watch, resetTest]);

  const refused = (failure: unknown) => {
    const { field, message } = relayFieldError(failure);
    form.setError(field, { type: 'server', message }, { shouldFocus: true });
  };

  const submit = form.handleSubmit(async (values) => {
    if (!editing) return add.mutateAsync(toAddInput(values)).then(onSaved, refused);
    const input = toEditInput(values, editing);
    if ('problem' in input)
      return form.setError(input.problem.field, { type: 'form', message: input.problem.message }, { shouldFocus: true });
    return edit.mutateAsync(input).then(onSaved, refused);
  });

  const runTest = async () => {
    if (!(await form.trigger(['url', 'username', 'password']))) return;
    const values = form.getValues();
    // A saved relay tested at its own address with no new password typed is tested with the login main keeps.
    const asSaved = editing && addressWithoutLogin(values.url) === editing.url && values.password === '' && editing.hasLogin;
    test.mutate(asSaved ? { name: editing.name } : toTestInput(values));
  };

  const errors = form.formState.errors;
  return (
    <Modal opened={opened} onClose={onClose} title={editing ? `Change ${editing.name}` : 'Add a remote relay'} size="lg">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput
            label="Name"
            description="Names its tiles and streams, and its camera links: relay://<name>/<stream>"
            placeholder="north"
            required
            spellCheck={false}
            autoComplete="off"
            error={errors.name?.message}
            data-autofocus
            {...form.register('name')}
          />
          <TextInput
            label="Address"
            description="Its HTTP API, as go2rtc serves it (port 1984 unless changed)"
            placeholder="http://10.0.0.5:1984"
            required
            spellCheck={false}
            autoComplete="off"
            error={errors.url?.message}
            {...form.register('url')}
          />
          <SimpleGrid cols={2}>
            <TextInput
              label="Username"
              description="Optional: when its API asks for a login"
              autoComplete="off"
              error={errors.username?.message}
              {...form.register('username')}
            />
            <PasswordInput
              label="Password"
              description={editing?.hasLogin ? 'Leave empty to keep the saved one' : 'Sealed on this computer, never shown again'}
              autoComplete="new-password"
              error={errors.password?.message}
              {...form.register('password')}
            />
          </SimpleGrid>
          {test.data ? (
            <RelayTestResult
              result={test.data}
              what={test.variables && 'url' in test.variables ? test.variables.url : (editing?.url ?? 'The relay')}
            />
          ) : null}
          {test.isError ? <ResultError error={test.error} title="The test could not be run" /> : null}
          <Text size="xs" c="dimmed">
            Its streams play here through this console&apos;s own relay, so viewers need to reach only this computer.
          </Text>
          <Group justify="space-between">
            <Button variant="default" onClick={() => void runTest()} loading={test.isPending}>
              Test
            </Button>
            <Group gap="sm">
              <Button variant="default" onClick={onClose}>
                Cancel
              </Button>
              <Button type="submit" loading={form.formState.isSubmitting}>
                {editing ? 'Save' : 'Add relay'}
              </Button>
            </Group>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
