import { Button, Group, SegmentedControl } from '@mantine/core';
import { IconKeyboard } from '@tabler/icons-react';
import { useCallback, useMemo, useRef, useState } from 'react';
import { LIVE_LAYOUTS, type LiveLayout } from '@shared/contract/preferences';
import { useMediaBase } from '../../api/use-media-base';
import { useStreams } from '../../api/use-streams';
import { SECTIONS } from '../../app/sections';
import { PageHeader } from '../../ui/PageHeader';
import { LoadingLine } from '../../ui/LoadingLine';
import { ResultError } from '../../ui/ResultError';
import { FirstRun } from './components/FirstRun';
import { LiveGrid } from './components/LiveGrid';
import { ShortcutsOverlay } from './components/ShortcutsOverlay';
import { snapshotUrl } from './components/Tile';
import { createLiveStore } from './live-store';
import { LAYOUT_LABEL } from './model/grid-layout';
import type { ShortcutAction } from './model/shortcuts';
import type { PlayerMode } from './player/player-types';
import { stepSelection } from './model/shortcuts';
import { moveTile, orderTiles } from './model/tile-order';
import { useLivePreferences } from './use-live-preferences';
import { useLiveShortcuts } from './use-live-shortcuts';
import { usePopout } from './use-popout';
import { videoCodecsOf } from './video-codecs';

const NO_MODES: Record<string, PlayerMode> = {};

/** Every stream as a live tile, in the layout and order the user chose (kept by main). */
export function LiveView() {
  const [useLive] = useState(createLiveStore);
  const live = useLive();
  const streams = useStreams();
  const { preferences, save, force } = useLivePreferences();
  const base = useMediaBase();
  const popout = usePopout();
  const tiles = useRef(new Map<string, HTMLElement>());

  const layout = preferences.data?.live.layout ?? 'auto';
  const savedOrder = preferences.data?.live.order;
  const forced = preferences.data?.live.modes ?? NO_MODES;
  const order = useMemo(
    () =>
      orderTiles(
        (streams.data ?? []).map((s) => s.name),
        savedOrder ?? [],
      ),
    [streams.data, savedOrder],
  );
  const codecsOf = useCallback((stream: string) => videoCodecsOf(streams.data ?? [], stream), [streams.data]);

  useLiveShortcuts((action: ShortcutAction) => {
    const stream = order[live.selected];
    if (action === 'help') return live.setHelpOpen(true);
    if (action === 'next' || action === 'previous') {
      const next = stepSelection(live.selected, order.length, action);
      live.select(next);
      return tiles.current.get(order[next] ?? '')?.focus();
    }
    if (!stream) return;
    if (action === 'fullscreen') void tiles.current.get(stream)?.requestFullscreen();
    if (action === 'mute') live.toggleSound(stream);
    if (action === 'snapshot') {
      const link = document.createElement('a');
      link.href = snapshotUrl(base, stream) ?? '';
      link.download = `${stream}.jpeg`;
      link.click();
    }
  });

  const actions = (
    <Group gap="sm">
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
      {preferences.isError ? <ResultError error={preferences.error} /> : null}
      {save.isError ? <ResultError error={save.error} /> : null}
      {force.isError ? <ResultError error={force.error} /> : null}
      {streams.data && preferences.data && order.length === 0 ? <FirstRun /> : null}
      {streams.data && preferences.data && order.length > 0 ? (
        <LiveGrid
          order={order}
          layout={layout}
          base={base}
          codecsOf={codecsOf}
          selected={live.selected}
          audible={live.audible}
          forced={forced}
          onSelect={live.select}
          onMove={(from, to) => save.mutate({ layout, order: moveTile(order, from, to) })}
          onPopout={(stream) => void popout(stream)}
          onToggleSound={live.toggleSound}
          onForce={(stream, mode) => force.mutate({ stream, mode })}
          tileRef={(stream, element) => (element ? tiles.current.set(stream, element) : tiles.current.delete(stream))}
        />
      ) : null}
      <ShortcutsOverlay opened={live.helpOpen} onClose={() => live.setHelpOpen(false)} />
    </section>
  );
}
