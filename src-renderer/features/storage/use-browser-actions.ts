import { useState } from 'react';
import type { BatchRequest } from '@shared/contract/storage';
import { useApi } from '../../api/api-context';
import { callService } from '../../api/service-query';
import type { BrowserDialog } from './model/browser-dialog';
import { useBucketMutation } from './use-storage';

/**
 * The bucket browser's dialog and the requests its dialogs send: a batch (delete, rename, move,
 * copy) and a new folder. `onBatchDone` runs after a batch has started.
 */
export function useBrowserActions(accountId: string, bucket: string, prefix: string, onBatchDone: () => void) {
  const api = useApi();
  const [dialog, setDialog] = useState<BrowserDialog>();
  const startBatch = useBucketMutation(accountId, bucket, (request: BatchRequest) => callService(api, 'storage', 'startBatch', request));
  const createFolder = useBucketMutation(accountId, bucket, (name: string) =>
    callService(api, 'storage', 'createFolder', { accountId, bucket, prefix: `${prefix}${name}/` }),
  );
  const runBatch = (request: BatchRequest) =>
    startBatch.mutate(request, {
      onSuccess: () => {
        setDialog(undefined);
        onBatchDone();
      },
    });

  /** A dialog opens clean: the last refusal belongs to the last dialog. */
  const openDialog = (next: BrowserDialog) => {
    startBatch.reset();
    createFolder.reset();
    setDialog(next);
  };

  return {
    dialog,
    openDialog,
    closeDialog: () => setDialog(undefined),
    runBatch,
    createFolder: (name: string) => createFolder.mutate(name, { onSuccess: () => setDialog(undefined) }),
    batch: { busy: startBatch.isPending, error: startBatch.error?.message },
    folder: { busy: createFolder.isPending, error: createFolder.error?.message },
  };
}
