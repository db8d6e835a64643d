import { useMutation } from '@tanstack/react-query';
import { useApi } from '../../api/api-context';
import { callService } from '../../api/service-query';
import { useUploadQueue } from '../storage/upload-queue-context';

export interface BucketExport {
  /** The range's MP4 on the playback base (`recordings.mp4?...`). */
  url: string;
  accountId: string;
  bucket: string;
  /** The object's key: `exports/cam-....mp4`. */
  key: string;
}

/**
 * A range joined into one object of a bucket, as an upload of the transfer queue (so the
 * Transfers panel shows its progress, pause and retry): the relay joins the range, the page
 * hands the MP4 to the queue as it does a chosen file, and main uploads it.
 */
export function useBucketExport() {
  const api = useApi();
  const uploads = useUploadQueue();
  return useMutation({
    mutationFn: async ({ url, accountId, bucket, key }: BucketExport) => {
      const response = await fetch(url);
      if (!response.ok) throw new Error(`the range could not be joined: ${(await response.text()) || `HTTP ${response.status}`}`);
      const mp4 = await response.blob();
      const slash = key.lastIndexOf('/');
      const [transfer] = await callService(api, 'transfers', 'addUploads', {
        accountId,
        bucket,
        prefix: key.slice(0, slash + 1),
        files: [{ relativePath: key.slice(slash + 1), size: mp4.size }],
      });
      if (transfer?.state === 'receiving') uploads.add([{ id: transfer.id, file: mp4 }]);
      return transfer;
    },
  });
}
