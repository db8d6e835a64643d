import { useQueryClient } from '@tanstack/react-query';
import type { ProcessingJob } from '@shared/contract/processing';
import { useApi } from '../../api/api-context';
import { serviceKey } from '../../api/service-query';
import { useServiceEvent } from '../../api/use-service-event';
import { useServiceMutation, useServiceQuery } from '../../api/use-service-query';
import { bucketReads } from './bucket-reads';

/** This run's processing jobs, kept current by main as prefop reports each change. */
export function useProcessingJobs() {
  const api = useApi();
  const queryClient = useQueryClient();
  useServiceEvent(api.processing.onJob, (job: ProcessingJob) => {
    queryClient.setQueryData(serviceKey('processing', 'list'), (list) => (list ? [job, ...list.filter((j) => j.id !== job.id)] : list));
    // A saved result is a new object in its bucket.
    if (job.state === 'done') void queryClient.invalidateQueries(bucketReads(job.accountId, job.saveAs.bucket));
  });
  return useServiceQuery('processing', 'list', undefined, { staleTime: Infinity });
}

export function useStartProcessing() {
  return useServiceMutation('processing', 'start');
}
