import type { BatchRequest } from '@shared/contract/storage';
import { nameOf } from '../model/kodo-address';
import { nameProblem, type BrowserDialog } from '../model/browser-dialog';
import { describeTarget, type ObjectCount } from '../model/selection';
import { useBuckets } from '../use-storage';
import { DeleteDialog } from './DeleteDialog';
import { MoveDialog } from './MoveDialog';
import { NameDialog } from './NameDialog';

/** Whether a request of a dialog is under way, and why the last one was refused. */
interface RequestState {
  busy: boolean;
  error?: string | undefined;
}

export interface BrowserDialogsProps {
  dialog: BrowserDialog;
  accountId: string;
  bucket: string;
  prefix: string;
  /** What "everything" in the folder counts, for the words of a delete, move or copy. */
  objectCount: ObjectCount;
  batch: RequestState;
  folder: RequestState;
  onClose(): void;
  onBatch(request: BatchRequest): void;
  onCreateFolder(name: string): void;
}

/** The bucket browser's dialogs: delete, rename, new folder, move and copy (one open at a time). */
export function BrowserDialogs({
  dialog,
  accountId,
  bucket,
  prefix,
  objectCount,
  batch,
  folder,
  onClose,
  onBatch,
  onCreateFolder,
}: BrowserDialogsProps) {
  const buckets = useBuckets(accountId);
  const bucketNames = (buckets.data ?? []).map((b) => b.name);
  return (
    <>
      <DeleteDialog
        target={dialog?.kind === 'delete' ? dialog.target : undefined}
        what={dialog?.kind === 'delete' ? describeTarget(dialog.target, prefix, objectCount) : ''}
        bucket={bucket}
        busy={batch.busy}
        error={batch.error}
        onCancel={onClose}
        onConfirm={() => dialog?.kind === 'delete' && onBatch({ kind: 'delete', accountId, bucket, ...dialog.target })}
      />
      <NameDialog
        opened={dialog?.kind === 'rename'}
        title={dialog?.kind === 'rename' ? `Rename ${dialog.item.folder ? 'folder' : 'file'}` : ''}
        label="New name"
        initial={dialog?.kind === 'rename' ? nameOf(dialog.item.key) : ''}
        submitLabel="Rename"
        withOverwrite
        validate={nameProblem}
        busy={batch.busy}
        error={batch.error}
        onCancel={onClose}
        onSubmit={(newName, overwrite) =>
          dialog?.kind === 'rename' && onBatch({ kind: 'rename', accountId, bucket, item: dialog.item, newName, overwrite })
        }
      />
      <NameDialog
        opened={dialog?.kind === 'folder'}
        title={`New folder in kodo://${bucket}/${prefix}`}
        label="Folder name"
        initial=""
        submitLabel="Create folder"
        validate={nameProblem}
        busy={folder.busy}
        error={folder.error}
        onCancel={onClose}
        onSubmit={onCreateFolder}
      />
      <MoveDialog
        kind={dialog?.kind === 'move' || dialog?.kind === 'copy' ? dialog.kind : undefined}
        what={dialog?.kind === 'move' || dialog?.kind === 'copy' ? describeTarget(dialog.target, prefix, objectCount) : ''}
        bucket={bucket}
        prefix={prefix}
        buckets={bucketNames.length > 0 ? bucketNames : [bucket]}
        busy={batch.busy}
        error={batch.error}
        onCancel={onClose}
        onSubmit={(place) =>
          (dialog?.kind === 'move' || dialog?.kind === 'copy') &&
          onBatch({ kind: dialog.kind, accountId, bucket, ...dialog.target, ...place })
        }
      />
    </>
  );
}
