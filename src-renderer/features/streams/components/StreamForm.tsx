import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { streamName, streamSource } from '../../../../src-shared/contract/relay';
import { useConnected } from '../../../app/use-connection';
import { useStreamActions, type StreamInput } from '../use-stream-actions';
import { NotConnectedAlert } from './NotConnectedAlert';
import { ProbeResult } from './ProbeResult';

const formSchema = z.object({
  name: streamName,
  // The console shows saved sources with their login masked; that mask must not be saved back.
  source: streamSource.refine((source) => !source.includes('***@'), 'type the login again: saved passwords are never shown in the console'),
});

export interface StreamFormProps {
  /** Undefined adds a stream; a stream edits its source (shown with its login masked). */
  editing?: StreamInput & { sourceCount: number };
  existingNames: string[];
  opened: boolean;
  onClose(): void;
  onSaved(name: string): void;
}

/**
 * Adds or edits a stream. The source is checked by the relay itself (the same rule the save
 * uses: a known scheme, nothing that runs commands), and can be probed before it is saved.
 */
export function StreamForm({ editing, existingNames, opened, onClose, onSaved }: StreamFormProps) {
  const actions = useStreamActions();
  const connected = useConnected();
  const save = editing ? actions.edit : actions.add;
  const initial = editing ? { name: editing.name, source: editing.source } : { name: '', source: '' };
  const form = useForm<StreamInput>({ resolver: zodResolver(formSchema), defaultValues: initial, mode: 'onTouched' });
  const { reset } = form;
  const { reset: resetProbe } = actions.probe;
  const { reset: resetSave } = save;

  useEffect(() => {
    if (!opened) return;
    reset(editing ? { name: editing.name, source: editing.source } : { name: '', source: '' });
    resetProbe();
    resetSave();
  }, [opened, editing, reset, resetProbe, resetSave]);

  /** The relay's own verdict on a source; its reason goes under the field. */
  const checkSource = async (source: string): Promise<boolean> => {
    if (!source.trim()) return false;
    const checked = await actions.check(source.trim());
    // The check itself failed (not connected, no answer): nothing was saved, say why.
    if (!checked.ok) {
      form.setError('root.relay', { message: checked.error.message });
      return false;
    }
    const { problem } = checked.value;
    if (problem) form.setError('source', { type: 'relay', message: problem });
    return !problem;
  };

  const submit = form.handleSubmit(async (values) => {
    if (!editing && existingNames.includes(values.name)) {
      form.setError('name', { message: `a stream named ${values.name} exists already` });
      return;
    }
    if (!(await checkSource(values.source))) return;
    await save.mutateAsync({ name: values.name, source: values.source.trim() }).then(() => onSaved(values.name), () => undefined);
  });

  const probe = async () => {
    const source = form.getValues('source').trim();
    if (!(await form.trigger('source')) || !(await checkSource(source))) return;
    actions.probe.mutate(source);
  };

  return (
    <Modal opened={opened} onClose={onClose} title={editing ? `Edit ${editing.name}` : 'Add a stream'} size="lg">
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <TextInput
            label="Name"
            description="Used in every link: rtsp://host:8554/<name>, /api/stream.mp4?src=<name>"
            placeholder="front_door"
            data-autofocus={!editing || undefined}
            disabled={Boolean(editing)}
            error={form.formState.errors.name?.message}
            {...form.register('name')}
          />
          <TextInput
            label="Source"
            description="rtsp://, http://, onvif://, ffmpeg:, webrtc:, homekit://, … Commands (exec:, echo:, expr:) are accepted only in the config file."
            placeholder="rtsp://user:password@192.168.1.20:554/stream1"
            data-autofocus={editing ? true : undefined}
            error={form.formState.errors.source?.message}
            {...form.register('source', { onBlur: (event) => void checkSource(event.target.value) })}
          />
          {editing && editing.sourceCount > 1 ? (
            <Alert color="yellow" title={`${editing.name} has ${editing.sourceCount} sources`}>
              Saving here keeps only this one. Edit the config file to keep several.
            </Alert>
          ) : null}
          <Group justify="space-between">
            <Button variant="default" onClick={() => void probe()} loading={actions.probe.isPending} disabled={!connected}>
              Probe source
            </Button>
            <Text size="xs" c="dimmed">
              Dials the source once, without saving it.
            </Text>
          </Group>
          {actions.probe.data ? <ProbeResult result={actions.probe.data} /> : null}
          {actions.probe.isError ? (
            <Alert color="red" title="Probe failed" data-testid="probe-result">
              {actions.probe.error.message}
            </Alert>
          ) : null}
          {!connected ? <NotConnectedAlert /> : null}
          {save.isError || form.formState.errors.root?.relay ? (
            <Alert color="red" title="The stream was not saved">
              {save.error?.message ?? form.formState.errors.root?.relay?.message}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={form.formState.isSubmitting} disabled={!connected}>
              {editing ? 'Save' : 'Add stream'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
