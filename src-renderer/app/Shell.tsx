import { Button, Kbd, Loader } from '@mantine/core';
import { IconKeyboard } from '@tabler/icons-react';
import { lazy, Suspense, useEffect } from 'react';
import { AboutView } from '../features/about/AboutView';
import { CalendarView } from '../features/calendar/CalendarView';
import { DirectoryView } from '../features/directory/DirectoryView';
import { CameraView } from '../features/live/CameraView';
import { tileLabel, tileOfId } from '../features/live/model/relay-tiles';
import { LiveView } from '../features/live/LiveView';
import { RecordingsView } from '../features/recordings/RecordingsView';
import { SettingsView } from '../features/settings/SettingsView';
import { StorageView } from '../features/storage/StorageView';
import { TransfersView } from '../features/storage/TransfersView';
import { StreamsView } from '../features/streams/StreamsView';
import { ThemeSwitch } from './color-scheme/ThemeSwitch';
import { useFollowStoredColorScheme } from './color-scheme/use-color-scheme-preference';
import { ConnectionBanner } from './ConnectionBanner';
import { ErrorBoundary } from './ErrorBoundary';
import { sectionOf, type Route } from './routes';
import { SECTIONS, SECTION_IDS, hashOf } from './sections';
import { ShortcutsDialog } from './shortcuts/ShortcutsDialog';
import { useShortcutsKey } from './shortcuts/use-shortcuts-key';
import { useUi } from './ui-store-context';
import { useRefetchOnReconnect } from './use-connection';

// The config editor brings CodeMirror: loaded when the section is first opened, not at start.
const ConfigView = lazy(() => import('../features/config/ConfigView').then((module) => ({ default: module.ConfigView })));

function SectionView({ route }: { route: Route }) {
  switch (route.section) {
    case 'live':
      return <LiveView />;
    case 'streams':
      return <StreamsView stream={route.stream} tab={route.tab} />;
    case 'config':
      return (
        <Suspense fallback={<Loader size="sm" aria-label="Loading the config editor" />}>
          <ConfigView />
        </Suspense>
      );
    case 'recordings':
      return <RecordingsView route={route} />;
    case 'storage':
      return <StorageView route={route} />;
    case 'transfers':
      return <TransfersView />;
    case 'calendar':
      return <CalendarView />;
    case 'directory':
      return <DirectoryView route={route} />;
    case 'about':
      return <AboutView />;
    case 'settings':
      return <SettingsView />;
    case 'camera':
      return <CameraView stream={route.stream} />;
  }
}

const CONNECTION_LABEL = { open: 'Connected', connecting: 'Connecting…', closed: 'Disconnected' } as const;

export function Shell() {
  const route = useUi((s) => s.route);
  const connection = useUi((s) => s.connection);
  const syncFromLocation = useUi((s) => s.syncFromLocation);
  const shortcutsOpen = useUi((s) => s.shortcutsOpen);
  const setShortcutsOpen = useUi((s) => s.setShortcutsOpen);
  const section = sectionOf(route);
  useRefetchOnReconnect();
  useFollowStoredColorScheme();
  // A pop-out window shows a camera and nothing else: no dialog to open there.
  useShortcutsKey(() => setShortcutsOpen(true), route.section !== 'camera');

  useEffect(() => {
    window.addEventListener('hashchange', syncFromLocation);
    return () => window.removeEventListener('hashchange', syncFromLocation);
  }, [syncFromLocation]);

  useEffect(() => {
    // A remote relay's camera is titled by its name and relay ("yard on north"), not its relay:// source.
    document.title =
      route.section === 'camera' ? `${tileLabel(tileOfId(route.stream))} · Relay Console` : `${SECTIONS[section].title} · Relay Console`;
  }, [route, section]);

  // A pop-out shows its camera alone: no navigation, the whole window for the picture.
  if (route.section === 'camera') {
    return (
      <ErrorBoundary resetKey={route.stream}>
        <ConnectionBanner />
        <CameraView stream={route.stream} />
      </ErrorBoundary>
    );
  }

  return (
    <div className="shell">
      <nav className="sidebar" aria-label="Sections">
        <div className="brand">
          <img src="./icon.svg" alt="" width={28} height={28} />
          <span>Relay Console</span>
        </div>
        <ul>
          {SECTION_IDS.filter((id) => SECTIONS[id].inNav).map((id) => (
            <li key={id}>
              <a href={hashOf(id)} aria-current={section === id ? 'page' : undefined} data-testid={`nav-${id}`}>
                {SECTIONS[id].title}
              </a>
            </li>
          ))}
        </ul>
        <div className="sidebar-tools">
          <ThemeSwitch />
          <Button
            variant="subtle"
            color="gray"
            size="xs"
            fullWidth
            justify="space-between"
            leftSection={<IconKeyboard size={16} aria-hidden="true" />}
            rightSection={<Kbd aria-hidden="true">?</Kbd>}
            aria-keyshortcuts="?"
            onClick={() => setShortcutsOpen(true)}
          >
            Keyboard shortcuts
          </Button>
        </div>
        <footer className="sidebar-footer">
          <span className={`status-dot status-${connection}`} aria-hidden="true" />
          <span data-testid="connection-state">{CONNECTION_LABEL[connection]}</span>
          <a href={hashOf('about')} data-testid="nav-about">
            About
          </a>
        </footer>
      </nav>
      <main className="content">
        <ConnectionBanner />
        <ErrorBoundary resetKey={`${route.section}`}>
          <SectionView route={route} />
        </ErrorBoundary>
      </main>
      <ShortcutsDialog opened={shortcutsOpen} onClose={() => setShortcutsOpen(false)} section={section} />
    </div>
  );
}
