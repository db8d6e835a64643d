import { Button, Group, List, Modal, Text } from '@mantine/core';
import type { BatchTarget } from '../model/selection';

/**
 * Asks before anything is deleted; folders are named as folders, with everything in them, and
 * "everything in the folder" as such (main lists it; it is never sent key by key).
 */
export function DeleteDialog({
  target,
  what,
  bucket,
  onCancel,
  onConfirm,
  busy,
  error,
}: {
  target: BatchTarget | undefined;
  what: string;
  bucket: string;
  onCancel(): void;
  onConfirm(): void;
  busy: boolean;
  error?: string | undefined;
}) {
  const items = target && 'items' in target ? target.items : [];
  const folders = items.filter((i) => i.folder).length;
  const all = target !== undefined && 'allIn' in target;
  return (
    <Modal opened={Boolean(target)} onClose={onCancel} title={`Delete from ${bucket}?`} centered>
      {target ? (
        <>
          <Text size="sm">
            {all ? `${what.charAt(0).toUpperCase()}${what.slice(1)}, sub-folders included,` : what}
            {folders > 0
              ? ` ${folders === 1 && items.length === 1 ? 'and every object in it' : `(${folders} ${folders === 1 ? 'folder' : 'folders'} with every object in them)`}`
              : ''}{' '}
            will be deleted. This cannot be undone.
          </Text>
          {!all ? (
            <List size="sm" mt="sm" spacing={2} className="dialog-list">
              {items.slice(0, 8).map((item) => (
                <List.Item key={item.key}>{item.key}</List.Item>
              ))}
              {items.length > 8 ? <List.Item>and {(items.length - 8).toLocaleString('en-US')} more</List.Item> : null}
            </List>
          ) : null}
          {error ? (
            <Text size="sm" c="red.8" mt="sm" role="alert">
              {error}
            </Text>
          ) : null}
          <Group justify="flex-end" mt="lg">
            <Button variant="default" onClick={onCancel}>
              Cancel
            </Button>
            <Button color="red" onClick={onConfirm} loading={busy} data-autofocus>
              Delete
            </Button>
          </Group>
        </>
      ) : null}
    </Modal>
  );
}
