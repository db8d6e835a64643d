import type { TileTimeline } from './tile-timeline';

/** The middle value (the upper one of an even count); NaN for none. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
}

/** What the page's own Performance timeline says, next to the probe's notes. */
export interface PageTimings {
  /** The document's response ended (navigation timing). */
  htmlAt: number;
  /** Every resource the page fetched: URL and when its response ended. */
  resources: ReadonlyArray<{ name: string; responseEnd: number }>;
}

/** One step of opening the console, in ms since navigation started (null: it never happened). */
export type Phase = readonly [label: string, at: number | null];

/**
 * Where the time from opening the console to its first moving tile went, in the order the
 * steps happen: page, bundle, first render, contract socket, streams list, the player's peer
 * connection when it chose WebRTC, its first media request, the WHEP answer when the mode is WebRTC, first and second
 * picture.
 */
export function tilePhases(timeline: TileTimeline, page: PageTimings): Phase[] {
  const resourceEnd = (pattern: RegExp) => page.resources.find((r) => pattern.test(r.name))?.responseEnd ?? null;
  const streams = Object.values(timeline.calls).find((call) => call.name === 'relay.listStreams');
  const phases: Phase[] = [
    ['page HTML in', page.htmlAt],
    ['main bundle in', resourceEnd(/\/assets\/index-[^/]*\.js$/)],
    ['first render', timeline.firstRenderAt],
    ['contract socket open', timeline.consoleSocketOpenAt],
    ['streams list asked', streams?.sentAt ?? null],
    ['streams list answered', streams?.answeredAt ?? null],
  ];
  if (timeline.peerCreatedAt !== null) phases.push(['player chose WebRTC (peer made)', timeline.peerCreatedAt]);
  phases.push([`player asks for media (${timeline.mediaRequest?.kind ?? 'none'})`, timeline.mediaRequest?.at ?? null]);
  if (timeline.mediaRequest?.kind === 'WHEP offer') phases.push(['WHEP answer in', resourceEnd(/\/api\/webrtc/)]);
  phases.push(['first picture', timeline.firstFrameAt], ['second, different picture', timeline.secondFrameAt]);
  return phases;
}

/** The median of each phase over rounds whose phases have the same labels; rounds missing a step are left out of it. */
export function medianPhases(rounds: readonly Phase[][]): Phase[] {
  const first = rounds[0] ?? [];
  return first.map(([label], index) => {
    const values = rounds.map((phases) => phases[index]?.[1]).filter((v): v is number => typeof v === 'number');
    return [label, values.length > 0 ? median(values) : null] as const;
  });
}
