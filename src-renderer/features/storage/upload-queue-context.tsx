import { createContext, useContext, type ReactNode } from 'react';
import type { UploadQueue } from './model/upload-queue';

const UploadQueueContext = createContext<UploadQueue | undefined>(undefined);

/** The window's upload queue (built once in main.tsx), for every view that starts or cancels uploads. */
export function UploadQueueProvider({ queue, children }: { queue: UploadQueue; children: ReactNode }) {
  return <UploadQueueContext.Provider value={queue}>{children}</UploadQueueContext.Provider>;
}

export function useUploadQueue(): UploadQueue {
  const queue = useContext(UploadQueueContext);
  if (!queue) throw new Error('useUploadQueue outside UploadQueueProvider');
  return queue;
}
