import { Button, Kbd, Loader } from '@mantine/core';
import { IconKeyboard } from '@tabler/icons-react';
import { Suspense, useEffect } from 'react';
import { CameraView } from '../features/live/CameraView';
import { tileLabel, tileOfId } from '../features/live/model/relay-tiles';
import { LiveView } from '../features/live/LiveView';
import { ThemeSwitch } from './color-scheme/ThemeSwitch';
import { useFollowStoredColorScheme } from './color-scheme/use-color-scheme-preference';
import { ConnectionBanner } from './ConnectionBanner';
import { ErrorBoundary } from './ErrorBoundary';
import {
  AboutView,
  CalendarView,
  ConfigView,
  DirectoryView,
  RecordingsView,
  SettingsView,
  StorageView,
  StreamsView,
  TransfersView,
} from './lazy-sections';
import { sectionOf, type Route } from './routes';
import { SECTIONS, SECTION_IDS, hashOf } from './sections';
import { ShortcutsDialog } from './shortcuts/ShortcutsDialog';
import { useShortcutsKey } from './shortcuts/use-shortcuts-key';
import { useUi } from './ui-store-context';
import { useRefetchOnReconnect } from './use-connection';

function SectionView({ route }: { route: Route }) {
  if (route.section === 'live') return <LiveView />;
  if (route.section === 'camera') return <CameraView stream={route.stream} />;
  return (
    <Suspense fallback={<Loader size="sm" aria-label={`Loading ${SECTIONS[sectionOf(route)].title}`} />}>
      <LazySectionView route={route} />
    </Suspense>
  );
}

/** The sections loaded when first opened (lazy-sections.tsx). */
function LazySectionView({ route }: { route: Exclude<Route, { section: 'live' | 'camera' }> }) {
  switch (route.section) {
    case 'streams':
      return <StreamsView stream={route.stream} tab={route.tab} />;
    case 'config':
      return <ConfigView />;
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
