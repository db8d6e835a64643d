import { Button, Group, List, Modal, Text } from '@mantine/core';
import type { BatchItem } from '../../../../src-shared/contract/storage';
import { nameOf } from '../model/kodo-address';

/** Asks before anything is deleted; folders are named as folders, with everything in them. */
export function DeleteDialog({ items, bucket, onCancel, onConfirm, busy }: { items: BatchItem[] | undefined; bucket: string; onCancel(): void; onConfirm(): void; busy: boolean }) {
  const folders = items?.filter((i) => i.folder).length ?? 0;
  return (
    <Modal opened={Boolean(items)} onClose={onCancel} title={`Delete from ${bucket}?`} centered>
      {items ? (
        <>
          <Text size="sm">
            {items.length === 1 ? `“${nameOf(items[0]!.key)}”` : `${items.length.toLocaleString('en-US')} items`}
            {folders > 0 ? ` ${folders === 1 && items.length === 1 ? 'and every object in it' : `(${folders} ${folders === 1 ? 'folder' : 'folders'} with every object in them)`}` : ''} will be
            deleted. This cannot be undone.
          </Text>
          <List size="sm" mt="sm" spacing={2} className="dialog-list">
            {items.slice(0, 8).map((item) => (
              <List.Item key={item.key}>{item.key}</List.Item>
            ))}
            {items.length > 8 ? <List.Item>and {(items.length - 8).toLocaleString('en-US')} more</List.Item> : null}
          </List>
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
