import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Group, Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import { useEffect, useMemo, useState } from 'react';
import { useFieldArray, useForm } from 'react-hook-form';
import { MAX_SOURCES, streamFormSchema, type StreamFormValues } from '@shared/contract/relay';
import { LOCAL_RELAY } from '@shared/contract/relays';
import { sourceHintText } from '@shared/relay/source-schemes';
import { useConnected } from '@renderer/app/use-connection';
import { initialValues, nameProblem, sourceLabel, toSave, type EditedStream } from '../model/stream-form';
import { useStreamActions } from '../use-stream-actions';
import { NotConnectedAlert } from './NotConnectedAlert';
import { ProbeResult } from './ProbeResult';
import { SourceList } from './SourceList';
import { SourceRow } from './SourceRow';

export interface StreamFormProps {
  /** Undefined adds a stream; a stream edits its name and sources (shown with their logins masked). */
  editing?: EditedStream;
  /** The remote relays a stream can be added to (those reachable now); none hides the relay picker. */
  relays: readonly string[];
  /** The names taken on a relay. */
  namesOn(relay: string): string[];
  opened: boolean;
  onClose(): void;
  /** Called with the name the stream has now (a new one after a rename). */
  onSaved(name: string): void;
}

const SOURCE_HINT = sourceHintText();

/**
 * Adds or edits a stream, on the embedded relay or on a remote one (picked when adding): its name
 * (a rename is one change on the relay) and its sources in order. Each source for the embedded
 * relay is checked by it (the same rule the save uses: a known scheme, nothing that runs
 * commands); a remote relay judges its own when saving. Any source can be probed first, by the
 * relay that will dial it.
 */
export function StreamForm({ editing, relays, namesOn, opened, onClose, onSaved }: StreamFormProps) {
  const actions = useStreamActions();
  const connected = useConnected();
  const save = editing ? actions.edit : actions.add;
  const schema = useMemo(() => streamFormSchema(editing?.sources ?? []), [editing]);
  const form = useForm<StreamFormValues>({ resolver: zodResolver(schema), defaultValues: initialValues(editing), mode: 'onTouched' });
  const sources = useFieldArray({ control: form.control, name: 'sources' });
  const [probed, setProbed] = useState<number>();
  const [relay, setRelay] = useState(LOCAL_RELAY);
  const remote = relay !== LOCAL_RELAY;
  const { reset } = form;
  const { reset: resetProbe } = actions.probe;
  const { reset: resetSave } = save;

  useEffect(() => {
    if (!opened) return;
    reset(initialValues(editing));
    setRelay(editing?.relay ?? LOCAL_RELAY);
    resetProbe();
    resetSave();
  }, [opened, editing, reset, resetProbe, resetSave]);

  /** The relay's own verdict on a source; its reason goes under that source. */
  const checkSource = async (index: number, source: string): Promise<boolean> => {
    if (!source.trim()) return false;
    if (remote) return true;
    // A saved source shown with its login masked is the relay's own: nothing to check.
    if (editing?.sources.includes(source.trim())) return true;
    const checked = await actions.check(source.trim());
    // The check itself failed (not connected, no answer): nothing was saved, say why.
    if (!checked.ok) {
      form.setError('root.relay', { message: checked.error.message });
      return false;
    }
    const { problem } = checked.value;
    if (problem) form.setError(`sources.${index}.url`, { type: 'relay', message: problem });
    return !problem;
  };

  const submit = form.handleSubmit(async (values) => {
    const taken = nameProblem(values.name, namesOn(relay), editing?.name);
    if (taken) {
      form.setError('name', { message: taken });
      return;
    }
    const verdicts = await Promise.all(values.sources.map((source, index) => checkSource(index, source.url)));
    if (verdicts.includes(false)) return;
    const input = toSave(values, editing?.name);
    await save.mutateAsync({ relay, ...input }).then(
      () => onSaved(values.name),
      () => undefined,
    );
  });

  const probe = async (index: number) => {
    const source = form.getValues(`sources.${index}.url`).trim();
    if (!(await form.trigger(`sources.${index}.url`)) || !(await checkSource(index, source))) return;
    setProbed(index);
    actions.probe.mutate({ relay, source });
  };

  const errors = form.formState.errors;
  const listError = errors.sources?.root?.message ?? errors.sources?.message;
  const renaming = editing !== undefined && form.watch('name') !== editing.name;

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={editing ? `Edit ${editing.name}${editing.relay ? ` on ${editing.relay}` : ''}` : 'Add a stream'}
      size="lg"
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          {!editing && relays.length > 0 ? (
            <Select
              label="Relay"
              description="Where the stream is saved: this console's own relay, or a remote relay through its API"
              value={relay}
              onChange={(value) => (setRelay(value ?? LOCAL_RELAY), actions.probe.reset())}
              data={[{ value: LOCAL_RELAY, label: 'This console (local)' }, ...relays.map((name) => ({ value: name, label: name }))]}
              allowDeselect={false}
            />
          ) : null}
          {editing?.relay ? (
            <Text size="sm">
              On the remote relay <strong>{editing.relay}</strong>: saved through its API.
            </Text>
          ) : null}
          <TextInput
            label="Name"
            description={
              renaming
                ? 'Renaming changes every link; viewers watching by the old name are disconnected and reconnect by the new one.'
                : 'Used in every link: rtsp://host:8554/<name>, /api/stream.mp4?src=<name>'
            }
            placeholder="front_door"
            data-autofocus={!editing || undefined}
            error={errors.name?.message}
            {...form.register('name')}
          />
          <SourceList
            ids={sources.fields.map((field) => field.id)}
            description={`Asked in this order for each viewer's codecs. ${SOURCE_HINT}`}
            error={listError}
            canAdd={sources.fields.length < MAX_SOURCES}
            onAdd={() => sources.append({ url: '' }, { focusName: `sources.${sources.fields.length}.url` })}
            onMove={(from, to) => sources.move(from, to)}
            row={(id, index) => (
              <SourceRow
                key={id}
                id={id}
                index={index}
                alone={sources.fields.length === 1}
                error={errors.sources?.[index]?.url?.message}
                field={form.register(`sources.${index}.url`, {
                  onBlur: (event: { target: HTMLInputElement }) => void checkSource(index, event.target.value),
                })}
                probing={actions.probe.isPending && probed === index}
                probeDisabled={!connected}
                onProbe={() => void probe(index)}
                onRemove={() => sources.remove(index)}
              />
            )}
          />
          {actions.probe.data ? (
            <ProbeResult result={actions.probe.data} title={probed === undefined ? undefined : sourceLabel(probed)} />
          ) : null}
          {actions.probe.isError ? (
            <Alert color="red" title="Probe failed" data-testid="probe-result">
              {actions.probe.error.message}
            </Alert>
          ) : null}
          {!connected ? <NotConnectedAlert /> : null}
          {save.isError || errors.root?.relay ? (
            <Alert color="red" title="The stream was not saved">
              {save.error?.message ?? errors.root?.relay?.message}
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
