import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ApiProvider } from '../api/api-context';
import type { ConsoleApi } from '../api/console-api';
import { UploadQueueProvider } from '../features/storage/upload-queue-context';
import type { UploadQueue } from '../features/storage/model/upload-queue';
import { ErrorBoundary } from './ErrorBoundary';
import { Shell } from './Shell';
import type { UiStore } from './ui-store';
import { UiStoreProvider } from './ui-store-context';

export function App({
  api,
  uiStore,
  queryClient,
  uploads,
}: {
  api: ConsoleApi;
  uiStore: UiStore;
  queryClient: QueryClient;
  uploads: UploadQueue;
}) {
  return (
    <ErrorBoundary>
      <QueryClientProvider client={queryClient}>
        <ApiProvider api={api}>
          <UiStoreProvider store={uiStore}>
            <UploadQueueProvider queue={uploads}>
              <Shell />
            </UploadQueueProvider>
          </UiStoreProvider>
        </ApiProvider>
      </QueryClientProvider>
    </ErrorBoundary>
  );
}
