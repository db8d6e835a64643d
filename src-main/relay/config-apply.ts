import { isDeepStrictEqual } from 'node:util';
import type { ConfigObject } from '../platform/config/config-store';
import { readStreamsSection } from './streams-config';

/**
 * The sections a running engine takes up when the config changes (each has an `onChange`
 * listener: streams in relay-module, preload, webtorrent). Every other section is read once at
 * start, so a change to it needs a restart.
 */
const LIVE_SECTIONS: ReadonlySet<string> = new Set(['streams', 'preload', 'webtorrent']);

export interface ConfigChanges {
  streams: { added: string[]; changed: string[]; removed: string[] };
  /** Top-level sections that changed and take effect only after a restart, in file order. */
  restartNeeded: string[];
}

/** What applying `next` over the running `current` does: which streams change now, and what waits for a restart. */
export function configChanges(current: ConfigObject, next: ConfigObject): ConfigChanges {
  const before = readStreamsSection(current.streams);
  const after = readStreamsSection(next.streams);
  const added = [...after.keys()].filter((name) => !before.has(name));
  const removed = [...before.keys()].filter((name) => !after.has(name));
  const changed = [...after.keys()].filter((name) => before.has(name) && !isDeepStrictEqual(before.get(name), after.get(name)));
  const sections = [...new Set([...Object.keys(next), ...Object.keys(current)])];
  const restartNeeded = sections.filter((name) => !LIVE_SECTIONS.has(name) && !isDeepStrictEqual(current[name], next[name]));
  return { streams: { added, changed, removed }, restartNeeded };
}
