import { Button, Group, SegmentedControl, Stack, Title } from '@mantine/core';
import { IconKeyboard } from '@tabler/icons-react';
import { useMemo, useRef, useState } from 'react';
import { LIVE_LAYOUTS, type LiveLayout } from '@shared/contract/preferences';
import { useMediaBase } from '../../api/use-media-base';
import { SECTIONS } from '../../app/sections';
import { PageHeader } from '../../ui/PageHeader';
import { LoadingLine } from '../../ui/LoadingLine';
import { ResultError } from '../../ui/ResultError';
import { FirstRun } from './components/FirstRun';
import { LiveGrid } from './components/LiveGrid';
import { RelayTileControls } from './components/RelayTileControls';
import { ShortcutsOverlay } from './components/ShortcutsOverlay';
import { snapshotUrl } from './components/TilePlayer';
import { createLiveStore } from './live-store';
import { LAYOUT_LABEL } from './model/grid-layout';
import { ALL_RELAYS, groupTiles, tileLabel, tileOfId } from './model/relay-tiles';
import type { ShortcutAction } from './model/shortcuts';
import type { PlayerMode } from './player/player-types';
import { stepSelection } from './model/shortcuts';
import { useLivePreferences } from './use-live-preferences';
import { useLiveShortcuts } from './use-live-shortcuts';
import { useLiveTiles } from './use-live-tiles';
import { useGridCallbacks } from './use-grid-callbacks';
import { usePopout } from './use-popout';

const NO_MODES: Record<string, PlayerMode> = {};

/**
 * Every stream as a live tile, the embedded relay's and each remote relay's, in the layout and
 * order the user chose (kept by main), filtered or grouped by relay.
 */
export function LiveView() {
  const [useLive] = useState(createLiveStore);
  const live = useLive();
  const { preferences, save, force } = useLivePreferences();
  const { streams, byId, order, relayNames, hasRemote, relaysError } = useLiveTiles(preferences.data?.live.order);
  const base = useMediaBase();
  const popout = usePopout();
  const tiles = useRef(new Map<string, HTMLElement>());

  const layout = preferences.data?.live.layout ?? 'auto';
  const forced = preferences.data?.live.modes ?? NO_MODES;
  // A relay that left the list takes its filter with it.
  const filter = relayNames.includes(live.relayFilter) ? live.relayFilter : ALL_RELAYS;
  const groups = useMemo(
    () => groupTiles(order, { filter, grouped: live.grouped && hasRemote, relays: relayNames }),
    [order, filter, live.grouped, hasRemote, relayNames],
  );
  const shown = useMemo(() => groups.flatMap((group) => group.ids), [groups]);
  const callbacks = useGridCallbacks({ order, layout, save, force, popout, tiles });

  useLiveShortcuts((action: ShortcutAction) => {
    const stream = shown[live.selected];
    if (action === 'help') return live.setHelpOpen(true);
    if (action === 'next' || action === 'previous') {
      const next = stepSelection(live.selected, shown.length, action);
      live.select(next);
      return tiles.current.get(shown[next] ?? '')?.focus();
    }
    if (!stream) return;
    if (action === 'fullscreen') void tiles.current.get(stream)?.requestFullscreen();
    if (action === 'mute') live.toggleSound(stream);
    if (action === 'snapshot') {
      const link = document.createElement('a');
      link.href = snapshotUrl(base, stream) ?? '';
      link.download = `${tileLabel(tileOfId(stream)).replace(/ /g, '_')}.jpeg`;
      link.click();
    }
  });

  const actions = (
    <Group gap="sm">
      {hasRemote ? (
        <RelayTileControls
          relays={relayNames}
          filter={filter}
          grouped={live.grouped}
          onFilter={live.setRelayFilter}
          onGrouped={live.setGrouped}
        />
      ) : null}
      <SegmentedControl
        aria-label="Layout"
        value={layout}
        onChange={(value) => save.mutate({ layout: value as LiveLayout, order })}
        data={LIVE_LAYOUTS.map((value) => ({ value, label: LAYOUT_LABEL[value] }))}
      />
      <Button variant="default" leftSection={<IconKeyboard size={16} />} onClick={() => live.setHelpOpen(true)} aria-keyshortcuts="?">
        Shortcuts
      </Button>
    </Group>
  );

  const grid = (ids: string[], offset: number, label: string) => (
    <LiveGrid
      ids={ids}
      byId={byId}
      label={label}
      offset={offset}
      showRelay={hasRemote}
      layout={layout}
      base={base}
      selected={live.selected}
      audible={live.audible}
      forced={forced}
      onSelect={live.select}
      onToggleSound={live.toggleSound}
      {...callbacks}
    />
  );
  const ready = streams.data && preferences.data;
  const offsets = groups.map((_, i) => groups.slice(0, i).reduce((sum, group) => sum + group.ids.length, 0));

  return (
    <section aria-labelledby="live-title" data-testid="section-live">
      <PageHeader
        titleId="live-title"
        title={SECTIONS.live.title}
        summary={SECTIONS.live.summary}
        actions={order.length > 0 ? actions : undefined}
      />
      {streams.isPending || preferences.isPending ? <LoadingLine>Loading streams…</LoadingLine> : null}
      {streams.isError ? <ResultError error={streams.error} /> : null}
      {relaysError ? <ResultError error={relaysError} title="The remote relays’ streams could not be read" /> : null}
      {preferences.isError ? <ResultError error={preferences.error} /> : null}
      {save.isError ? <ResultError error={save.error} /> : null}
      {force.isError ? <ResultError error={force.error} /> : null}
      {ready && order.length === 0 ? <FirstRun /> : null}
      {ready && order.length > 0 ? (
        <Stack gap="md">
          {groups.map((group, i) =>
            group.relay ? (
              <section key={group.relay} aria-label={`Relay ${group.relay}`}>
                <Title order={2} size="h5" mb={6}>
                  {group.relay}
                </Title>
                {grid(group.ids, offsets[i]!, `Cameras on ${group.relay}`)}
              </section>
            ) : (
              <div key="all">{grid(group.ids, 0, 'Cameras')}</div>
            ),
          )}
        </Stack>
      ) : null}
      <ShortcutsOverlay opened={live.helpOpen} onClose={() => live.setHelpOpen(false)} />
    </section>
  );
}
