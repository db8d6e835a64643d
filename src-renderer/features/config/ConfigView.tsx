import { Alert, Select, Stack, Text } from '@mantine/core';
import { useEffect, useState, type ReactNode } from 'react';
import { LOCAL_RELAY } from '@shared/contract/relays';
import { useRelays } from '@renderer/api/use-relays';
import { SECTIONS } from '../../app/sections';
import { useConnected, useReconnects } from '../../app/use-connection';
import { PageHeader } from '../../ui/PageHeader';
import { QueryState } from '../../ui/QueryState';
import { ResultError } from '../../ui/ResultError';
import { ConfigEditor, type ConfigEditorProps } from './components/ConfigEditor';
import { ProblemsList } from './components/ProblemsList';
import { RemoteConfig } from './components/RemoteConfig';
import { DiscardDraftDialog } from './components/DiscardDraftDialog';
import { DiskChangedNotice } from './components/DiskChangedNotice';
import { FileLine } from './components/FileLine';
import { SaveActions } from './components/SaveActions';
import { SaveDialog } from './components/SaveDialog';
import { appliedSummary, differsFromDisk, isDirty, notApplied, saveDecision } from './model/config-doc';
import { countErrors } from './model/problems';
import { useConfigFile } from './use-config-file';
import { SaveBlockedAlert } from './components/SaveBlockedAlert';

/**
 * The config in an editor that checks it as you type and shows the diff before it writes: this
 * console's own file, or (picked above the editor) a remote relay's through its API.
 */
export function ConfigView() {
  const relays = useRelays();
  const [relay, setRelay] = useState(LOCAL_RELAY);
  // Whether the open editor has unsaved edits, and the relay the picker was asked for meanwhile.
  const [dirty, setDirty] = useState(false);
  const [asked, setAsked] = useState<string>();
  const list = relays.data ?? [];
  const picked = list.find((r) => r.name === relay);
  const shown = picked ? relay : LOCAL_RELAY;
  const open = (next: string) => (setDirty(false), setAsked(undefined), setRelay(next));
  const pick = (value: string | null) => {
    const next = value ?? LOCAL_RELAY;
    if (next === shown) return;
    if (dirty) setAsked(next);
    else open(next);
  };
  const picker =
    list.length > 0 ? (
      <>
        <Select
          label="Relay"
          value={shown}
          onChange={pick}
          data={[{ value: LOCAL_RELAY, label: 'This console (local)' }, ...list.map((r) => ({ value: r.name, label: r.name }))]}
          allowDeselect={false}
          w={240}
          mb="sm"
        />
        <DiscardDraftDialog
          next={asked === LOCAL_RELAY ? 'this console' : asked}
          onKeepEditing={() => setAsked(undefined)}
          onDiscard={() => asked !== undefined && open(asked)}
        />
      </>
    ) : null;
  // Each relay's editor is its own: a switch starts from that relay's file, never from another's draft.
  return picked ? (
    <RemoteConfig key={picked.name} relay={picked} picker={picker} onDirty={setDirty} />
  ) : (
    <LocalConfig picker={picker} onDirty={setDirty} />
  );
}

/** This console's own file, with Apply and Save and restart. */
function LocalConfig({ picker, onDirty }: { picker: ReactNode; onDirty(dirty: boolean): void }) {
  const { file, schema, doc, dispatch, problems, checking, validate, save, apply } = useConfigFile();
  const [saving, setSaving] = useState<{ restart: boolean; restartOnly: boolean }>();
  const [blocked, setBlocked] = useState<string>();
  const [jumpTo, setJumpTo] = useState<ConfigEditorProps['jumpTo']>();
  const connected = useConnected();
  const reconnects = useReconnects();
  const dirty = isDirty(doc);
  const errors = countErrors(problems);
  useEffect(() => onDirty(dirty), [dirty, onDirty]);

  const askToSave = (restart: boolean) => {
    const decision = saveDecision(doc, errors, restart);
    if (decision.kind === 'nothing') {
      return setBlocked(
        decision.notApplied
          ? 'Nothing to save: the editor has what is on disk, but the relay is not running that file yet. Apply it (above), or Save and restart.'
          : 'Nothing to save: the editor has what is on disk.',
      );
    }
    if (decision.kind === 'errors') {
      const what = decision.count === 1 ? 'error' : `${decision.count} errors`;
      return setBlocked(`Fix the ${what} first: a file the relay cannot read is never written.`);
    }
    setBlocked(undefined);
    save.reset();
    setSaving({ restart, restartOnly: decision.kind === 'restart-only' });
  };

  const confirm = () => {
    if (!saving || !doc.base) return;
    const text = saving.restartOnly ? undefined : doc.draft;
    save.mutate({ text, baseRevision: doc.base.revision, restart: saving.restart }, { onSuccess: () => setSaving(undefined) });
  };

  const applyDisk = () => {
    if (!doc.disk) return;
    apply.mutate({ revision: doc.disk.revision });
  };

  const actions = (
    <SaveActions dirty={dirty} canSave={Boolean(doc.base) && connected} onRevert={() => dispatch({ type: 'revert' })} onSave={askToSave} />
  );

  return (
    <section aria-labelledby="config-title" data-testid="section-config">
      <PageHeader titleId="config-title" title={SECTIONS.config.title} summary={SECTIONS.config.summary} actions={actions} />
      {picker}
      <QueryState query={file} loading="Reading the config file…" />
      {schema.isError ? <ResultError error={schema.error} /> : null}
      {doc.base ? (
        <Stack gap="sm">
          <FileLine path={doc.base.path} dirty={dirty} />
          <DiskChangedNotice
            path={doc.base.path}
            notApplied={notApplied(doc)}
            conflict={Boolean(doc.newerOnDisk)}
            editorDiffers={differsFromDisk(doc)}
            dirty={dirty}
            applying={apply.isPending}
            connected={connected}
            // An error is about the revision it tried: a newer file on disk gets a fresh chance.
            applyError={apply.isError && apply.variables.revision === doc.disk?.revision ? apply.error.message : undefined}
            onApply={applyDisk}
            onReload={() => dispatch({ type: 'reload' })}
            onKeepMine={() => dispatch({ type: 'keep-mine' })}
          />
          {apply.isSuccess && !notApplied(doc) ? (
            <Alert
              color="green"
              withCloseButton
              onClose={() => apply.reset()}
              closeButtonLabel="Dismiss"
              title={`Applied ${doc.base.path}`}
              data-testid="applied"
            >
              {appliedSummary(apply.data).map((line) => (
                <Text size="sm" key={line}>
                  {line}
                </Text>
              ))}
            </Alert>
          ) : null}
          {doc.notice === 'reloaded-from-disk' ? (
            <Alert color="blue" data-testid="reloaded-notice">
              The file changed on disk and was reloaded (you had no unsaved changes).
            </Alert>
          ) : null}
          <SaveBlockedAlert message={blocked} onDismiss={() => setBlocked(undefined)} />
          {save.isSuccess && save.data.restartedAt ? (
            <Alert color="green" data-testid="restarted">
              Saved. The engine restarted at {new Date(save.data.restartedAt).toLocaleTimeString()} with this file.
            </Alert>
          ) : null}
          {save.isSuccess && !save.data.restartedAt && !dirty ? (
            <Alert color="green" data-testid="saved">
              Saved to disk.
            </Alert>
          ) : null}
          <ConfigEditor
            text={doc.draft}
            replaced={doc.replaced}
            schema={schema.data}
            onChange={(text) => dispatch({ type: 'edited', text })}
            validate={validate}
            recheck={reconnects}
            onSave={() => askToSave(false)}
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
        opened={Boolean(saving)}
        restart={saving?.restart ?? false}
        restartOnly={saving?.restartOnly ?? false}
        path={doc.base?.path ?? ''}
        onDisk={doc.base?.text ?? ''}
        draft={doc.draft}
        saving={save.isPending}
        error={save.error?.message}
        onConfirm={confirm}
        onClose={() => setSaving(undefined)}
      />
    </section>
  );
}
