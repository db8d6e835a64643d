import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../api/api-context';
import { serviceKey } from '../../api/service-query';
import { useServiceQuery } from '../../api/use-service-query';
import { PageHeader } from '../../ui/PageHeader';
import { QueryState } from '../../ui/QueryState';
import { formatDuration } from '../../ui/format';
import { SECTIONS } from '../../app/sections';

/** What runs and where it keeps its files, read live from main through the `app` service. */
export function AboutView() {
  const api = useApi();
  const queryClient = useQueryClient();
  const info = useServiceQuery('app', 'info');

  // main's heartbeat keeps the uptime live without polling.
  useEffect(
    () =>
      api.app.onHeartbeat(({ uptimeSeconds }) =>
        queryClient.setQueryData(serviceKey('app', 'info'), (old) => (old ? { ...old, uptimeSeconds } : old)),
      ),
    [api, queryClient],
  );

  return (
    <section aria-labelledby="about-title">
      <PageHeader titleId="about-title" title={SECTIONS.about.title} summary={SECTIONS.about.summary} />
      <QueryState query={info} loading="Loading…" />
      {info.data ? (
        <dl className="facts" data-testid="about-facts">
          <dt>Version</dt>
          <dd data-testid="about-version">{info.data.version}</dd>
          <dt>Runtime</dt>
          <dd data-testid="about-runtime">{info.data.runtime === 'electron' ? 'Desktop (Electron)' : 'Headless (browser)'}</dd>
          <dt>Config file</dt>
          <dd data-testid="about-config-path">
            <code>{info.data.configPath}</code>
          </dd>
          <dt>Data folder</dt>
          <dd data-testid="about-data-dir">
            <code>{info.data.dataDir}</code>
          </dd>
          <dt>Relay API</dt>
          <dd>
            <code>{info.data.apiUrl}</code>
          </dd>
          <dt>Up for</dt>
          <dd data-testid="about-uptime">{formatDuration(info.data.uptimeSeconds)}</dd>
          <dt>Platform</dt>
          <dd>
            {info.data.platform}, Node {info.data.nodeVersion}
          </dd>
        </dl>
      ) : null}
    </section>
  );
}
