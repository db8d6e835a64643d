import type { StreamSummary } from '@shared/contract/relay';

/** The video codecs a stream's producers send (h264, h265, jpeg, ...), for the player's mode decision. */
export function videoCodecsOf(streams: readonly StreamSummary[], name: string): string[] {
  const stream = streams.find((s) => s.name === name);
  return [...new Set((stream?.producers ?? []).flatMap((p) => p.codecs.filter((c) => c.kind === 'video').map((c) => c.name)))];
}
