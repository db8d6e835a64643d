import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ApiProvider } from '../api/api-context';
import type { ConsoleApi } from '../api/console-api';
import { ErrorBoundary } from './ErrorBoundary';
import { Shell } from './Shell';
import type { UiStore } from './ui-store';
import { UiStoreProvider } from './ui-store-context';

export function App({ api, uiStore, queryClient }: { api: ConsoleApi; uiStore: UiStore; queryClient: QueryClient }) {
  return (
    <ErrorBoundary>
      <QueryClientProvider client={queryClient}>
        <ApiProvider api={api}>
          <UiStoreProvider store={uiStore}>
            <Shell />
          </UiStoreProvider>
        </ApiProvider>
      </QueryClientProvider>
    </ErrorBoundary>
  );
}
