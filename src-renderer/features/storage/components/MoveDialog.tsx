import { Button, Checkbox, Group, Modal, Select, Text, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';

export interface MoveDialogProps {
  kind: 'move' | 'copy' | undefined;
  /** What goes: "“a.jpg”", "3 items", "all 1,234 objects in photos/". */
  what: string;
  bucket: string;
  prefix: string;
  buckets: string[];
  onCancel(): void;
  onSubmit(target: { toBucket: string; toPrefix: string; overwrite: boolean }): void;
  busy: boolean;
  error?: string;
}

/** Where the selection goes: a bucket of the same account and a folder in it. */
export function MoveDialog({ kind, what, bucket, prefix, buckets, onCancel, onSubmit, busy, error }: MoveDialogProps) {
  const [toBucket, setToBucket] = useState(bucket);
  const [toFolder, setToFolder] = useState(prefix);
  const [overwrite, setOverwrite] = useState(false);
  useEffect(() => {
    if (!kind) return;
    setToBucket(bucket);
    setToFolder(prefix);
    setOverwrite(false);
  }, [kind, bucket, prefix]);
  const folder = toFolder.trim().replace(/^\/+/, '');
  const toPrefix = folder === '' || folder.endsWith('/') ? folder : `${folder}/`;
  const verb = kind === 'copy' ? 'Copy' : 'Move';
  return (
    <Modal opened={Boolean(kind)} onClose={onCancel} title={`${verb} ${what}`} centered>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          onSubmit({ toBucket, toPrefix, overwrite });
        }}
      >
        <Select
          label="To bucket"
          data={buckets}
          value={toBucket}
          onChange={(value) => setToBucket(value ?? bucket)}
          allowDeselect={false}
        />
        <TextInput
          mt="sm"
          label="To folder"
          description="Empty for the bucket's root; missing folders are made"
          value={toFolder}
          onChange={(event) => setToFolder(event.currentTarget.value)}
          error={error}
          spellCheck={false}
          data-autofocus
        />
        <Checkbox
          mt="sm"
          label="Replace files that already exist there"
          checked={overwrite}
          onChange={(event) => setOverwrite(event.currentTarget.checked)}
        />
        <Text size="xs" c="dimmed" mt="xs">
          Folders go as batches of at most 1000 objects; progress shows under the table.
        </Text>
        <Group justify="flex-end" mt="lg">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={busy}>
            {verb}
          </Button>
        </Group>
      </form>
    </Modal>
  );
}
