import { useEffect } from 'react';
import { AboutView } from '../features/about/AboutView';
import { SettingsView } from '../features/settings/SettingsView';
import { ErrorBoundary } from './ErrorBoundary';
import { SECTIONS, SECTION_IDS, hashOf, type SectionId } from './sections';
import { UpcomingSection } from './UpcomingSection';
import { useUi } from './ui-store-context';

function SectionView({ id }: { id: SectionId }) {
  switch (id) {
    case 'about':
      return <AboutView />;
    case 'settings':
      return <SettingsView />;
    default:
      return <UpcomingSection section={SECTIONS[id]} />;
  }
}

const CONNECTION_LABEL = { open: 'Connected', connecting: 'Connecting…', closed: 'Disconnected' } as const;

export function Shell() {
  const section = useUi((s) => s.section);
  const connection = useUi((s) => s.connection);
  const syncFromLocation = useUi((s) => s.syncFromLocation);

  useEffect(() => {
    window.addEventListener('hashchange', syncFromLocation);
    return () => window.removeEventListener('hashchange', syncFromLocation);
  }, [syncFromLocation]);

  useEffect(() => {
    document.title = `${SECTIONS[section].title} · Relay Console`;
  }, [section]);

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
        <footer className="sidebar-footer">
          <span className={`status-dot status-${connection}`} aria-hidden="true" />
          <span data-testid="connection-state">{CONNECTION_LABEL[connection]}</span>
          <a href={hashOf('about')} data-testid="nav-about">
            About
          </a>
        </footer>
      </nav>
      <main className="content">
        <ErrorBoundary resetKey={section}>
          <SectionView id={section} />
        </ErrorBoundary>
      </main>
    </div>
  );
}
