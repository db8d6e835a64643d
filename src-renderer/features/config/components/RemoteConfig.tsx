import { Alert, Stack, Text } from '@mantine/core';
import { useEffect, useState, type ReactNode } from 'react';
import type { RelayInfo } from '@shared/contract/relays';
import { useConnected } from '@renderer/app/use-connection';
import { SECTIONS } from '@renderer/app/sections';
import { LoadingLine } from '@renderer/ui/LoadingLine';
import { PageHeader } from '@renderer/ui/PageHeader';
import { unreachableSentence } from '@renderer/features/relays/model/relay-state-text';
import { isDirty, saveDecision } from '../model/config-doc';
import { countErrors } from '../model/problems';
import { useRemoteConfig } from '../use-remote-config';
import { ConfigEditor, type ConfigEditorProps } from './ConfigEditor';
import { FileLine } from './FileLine';
import { ProblemsList } from './ProblemsList';
import { SaveActions } from './SaveActions';
import { SaveDialog } from './SaveDialog';
import { SaveBlockedAlert } from './SaveBlockedAlert';
import { RemoteChangedNotice } from './RemoteChangedNotice';

interface RemoteConfigProps {
  relay: RelayInfo;
  picker: ReactNode;
  /** Told whether the editor has unsaved edits, so the picker asks before dropping them. */
  onDirty(dirty: boolean): void;
}

/**
 * A remote relay's config in the same editor: checked as you type, the diff before it is written,
 * and never written over a newer file. A relay that does not serve its config says so.
 */
export function RemoteConfig({ relay, picker, onDirty }: RemoteConfigProps) {
  const editable = relay.configEditable !== false;
  const away = relay.state === 'unreachable';
  // Read once the relay answers: an unreachable one is asked again when `onRelays` says it is back.
  const { file, doc, dispatch, problems, checking, validate, save } = useRemoteConfig(relay.name, relay.url, editable && !away);
  const [saving, setSaving] = useState(false);
  const [blocked, setBlocked] = useState<string>();
  const [jumpTo, setJumpTo] = useState<ConfigEditorProps['jumpTo']>();
  const connected = useConnected();
  const dirty = isDirty(doc);
  useEffect(() => onDirty(dirty), [dirty, onDirty]);

  const askToSave = () => {
    const decision = saveDecision(doc, countErrors(problems), false);
    if (decision.kind === 'errors') {
      return setBlocked(
        `Fix the ${decision.count === 1 ? 'error' : `${decision.count} errors`} first: a file the relay cannot read is never sent.`,
      );
    }
    if (decision.kind !== 'write') return setBlocked(`Nothing to save: the editor has what ${relay.name} serves.`);
    setBlocked(undefined);
    save.reset();
    setSaving(true);
  };

  const actions = (
    <SaveActions
      dirty={dirty}
      canSave={Boolean(doc.base) && connected}
      canRestart={false}
      onRevert={() => dispatch({ type: 'revert' })}
      onSave={askToSave}
    />
  );

  return (
    <section aria-labelledby="config-title" data-testid="section-config">
      <PageHeader
        titleId="config-title"
        title={SECTIONS.config.title}
        summary={SECTIONS.config.summary}
        actions={doc.base ? actions : undefined}
      />
      {picker}
      {file.isFetching && !doc.base ? <LoadingLine>{`Reading ${relay.name}'s config…`}</LoadingLine> : null}
      {away && !doc.base ? (
        <Alert color="red" title={unreachableSentence(relay)} data-testid="config-not-served">
          <Text size="sm">Its config is read once it answers again.</Text>
        </Alert>
      ) : null}
      {!away && (!editable || file.isError) ? (
        <Alert color="gray" title={`${relay.name} does not serve its config`} data-testid="config-not-served">
          <Text size="sm">
            {file.error?.message ??
              'Its API has no /api/config to read and write (go2rtc serves one unless its config is read-only). Edit the file on that machine instead.'}
          </Text>
        </Alert>
      ) : null}
      {editable && doc.base ? (
        <Stack gap="sm">
          <FileLine path={doc.base.path} dirty={dirty} />
          <SaveBlockedAlert message={blocked} onDismiss={() => setBlocked(undefined)} />
          {doc.newerOnDisk ? (
            <RemoteChangedNotice
              relay={relay.name}
              onLoadTheirs={() => dispatch({ type: 'take-disk' })}
              onKeepMine={() => dispatch({ type: 'keep-mine' })}
            />
          ) : null}
          {save.isSuccess && !dirty ? (
            <Alert color="green" data-testid="saved">
              Saved to {relay.name}.
            </Alert>
          ) : null}
          <ConfigEditor
            text={doc.draft}
            replaced={doc.replaced}
            schema={undefined}
            onChange={(text) => dispatch({ type: 'edited', text })}
            validate={validate}
            onSave={askToSave}
            jumpTo={jumpTo}
          />
          <ProblemsList
            problems={problems}
            checking={checking}
            onJump={(p) => setJumpTo({ line: p.line ?? 1, column: p.column ?? 1, at: Date.now() })}
          />
        </Stack>
      ) : null}
      <SaveDialog
        opened={saving}
        restart={false}
        path={doc.base?.path ?? ''}
        onDisk={doc.base?.text ?? ''}
        draft={doc.draft}
        saving={save.isPending}
        error={save.error?.message}
        onConfirm={() =>
          doc.base && save.mutate({ text: doc.draft, baseRevision: doc.base.revision }, { onSuccess: () => setSaving(false) })
        }
        onClose={() => setSaving(false)}
      />
    </section>
  );
}
