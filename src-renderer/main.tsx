import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import '@mantine/dates/styles.css';
import 'uplot/dist/uPlot.min.css';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createConsoleApi } from './api/console-api';
import { selectTransport } from './api/select-transport';
import { App } from './app/App';
import { consoleTheme } from './app/theme';
import { colorSchemeFromPage, toMantineScheme } from './app/color-scheme/color-scheme';
import { createColorSchemeManager } from './app/color-scheme/color-scheme-manager';
import { createUiStore } from './app/ui-store';
import { TRANSFER_BODY_PATH } from '../src-shared/contract/transfers';
import { COLOR_SCHEME_META } from '../src-shared/contract/wire';
import { createUploadQueue } from './features/storage/model/upload-queue';
import './styles.css';

// Everything the renderer holds is built here, once, and handed down.
const selected = selectTransport();
const api = createConsoleApi(selected.transport);
const uiStore = createUiStore();
selected.onStateChange((state) => uiStore.getState().setConnection(state));
const uploads = createUploadQueue({ fetch: (url, init) => fetch(url, init), path: TRANSFER_BODY_PATH });
// The theme main keeps arrives written into the page, so the first paint is already in it.
const colorSchemeManager = createColorSchemeManager(
  toMantineScheme(colorSchemeFromPage(document.querySelector<HTMLMetaElement>(`meta[name="${COLOR_SCHEME_META}"]`)?.content)),
);
const queryClient = new QueryClient({
  // A change is never paused offline and replayed later: it runs (and fails) when the user makes it.
  defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false, staleTime: 5_000 }, mutations: { networkMode: 'always' } },
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider theme={consoleTheme} defaultColorScheme="auto" colorSchemeManager={colorSchemeManager}>
      <Notifications position="bottom-right" />
      <App api={api} uiStore={uiStore} queryClient={queryClient} uploads={uploads} />
    </MantineProvider>
  </StrictMode>,
);
