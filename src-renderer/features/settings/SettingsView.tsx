import { useServiceQuery } from '../../api/use-service-query';
import { hashOf, SECTIONS } from '../../app/sections';
import { PageHeader } from '../../ui/PageHeader';
import { ResultError } from '../../ui/ResultError';
import { RelaysPanel } from '../relays/RelaysPanel';
import { AppearancePanel } from './components/AppearancePanel';
import { DirectoryAccountPanel } from './components/DirectoryAccountPanel';
import { DirectoryConnectionsPanel } from './components/DirectoryConnectionsPanel';

export function SettingsView() {
  const info = useServiceQuery('app', 'info');
  return (
    <section data-testid="section-settings">
      <PageHeader title={SECTIONS.settings.title} summary={SECTIONS.settings.summary} />
      {info.isError ? <ResultError error={info.error} /> : null}
      <AppearancePanel />
      <div className="panel">
        <h2>Configuration file</h2>
        <p>
          Relay Console reads its settings from <code>{info.data?.configPath ?? '…'}</code>. The file is go2rtc-compatible YAML; changes
          made in the console are written back to it with comments kept.
        </p>
        <p>
          <a href={hashOf('about')}>About Relay Console</a>
        </p>
      </div>
      <RelaysPanel />
      <DirectoryConnectionsPanel />
      <DirectoryAccountPanel />
    </section>
  );
}
