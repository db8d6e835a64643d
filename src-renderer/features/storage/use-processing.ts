import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ProcessingJob } from '../../../src-shared/contract/processing';
import { unwrap } from '../../../src-shared/contract/result';
import { useApi } from '../../api/api-context';
import { queryKeys } from '../../api/query-keys';
import { useServiceEvent } from '../../api/use-service-event';

/** This run's processing jobs, kept current by main as prefop reports each change. */
export function useProcessingJobs() {
  const api = useApi();
  const queryClient = useQueryClient();
  useServiceEvent(api.processing.onJob, (job: ProcessingJob) => {
    queryClient.setQueryData<ProcessingJob[]>(queryKeys.processingJobs, (list) => (list ? [job, ...list.filter((j) => j.id !== job.id)] : list));
    // A saved result is a new object in its bucket.
    if (job.state === 'done') void queryClient.invalidateQueries({ queryKey: queryKeys.storageBucket(job.accountId, job.saveAs.bucket) });
  });
  return useQuery({ queryKey: queryKeys.processingJobs, queryFn: async () => unwrap(await api.processing.list()), staleTime: Infinity });
}

export function useStartProcessing() {
  const api = useApi();
  return useMutation({
    mutationFn: async (request: { accountId: string; bucket: string; key: string; command: string; saveAs: { bucket: string; key: string } }) => unwrap(await api.processing.start(request)),
  });
}
