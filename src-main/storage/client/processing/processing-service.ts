import { processingService, type ProcessingJob } from '@shared/contract/processing';
import type { EngineContext } from '@main/engine/engine-context';
import type { KodoClient } from '../kodo-client';
import { createProcessingJobs } from './processing-jobs';

/** Binds the `processing` contract service; `onSaved` tells the folder index of each result. */
export function bindProcessingService(
  ctx: EngineContext,
  clientFor: (accountId: string) => Promise<KodoClient>,
  onSaved: (job: ProcessingJob) => void,
): void {
  const jobs = createProcessingJobs({ clientFor, onJob: (job) => emit('onJob', job), onSaved, logger: ctx.logger.child('processing') });
  ctx.onClose(() => jobs.close());
  const emit = ctx.services.bind(processingService, {
    start: (request) => jobs.start(request),
    list: async () => jobs.list(),
  });
}
