import { isMap, type Document } from 'yaml';
import type { ConfigStore } from '../platform/config/config-store';

/**
 * The `streams:` section: `name: source`, `name: [source, ...]`, or `name:` with no value (a
 * publish target, as in go2rtc's `push:`).
 */
export function readStreamsSection(value: unknown): Map<string, string[]> {
  const streams = new Map<string, string[]>();
  if (!value || typeof value !== 'object' || Array.isArray(value)) return streams;
  for (const [name, sources] of Object.entries(value as Record<string, unknown>)) {
    if (sources === null || sources === undefined || sources === '') streams.set(name, []);
    else if (typeof sources === 'string') streams.set(name, [sources]);
    else if (Array.isArray(sources)) streams.set(name, sources.filter((s): s is string => typeof s === 'string' && s !== ''));
  }
  return streams;
}

/** Writes one stream into the config (undefined removes it), keeping comments and key order. */
export function persistStream(config: ConfigStore, name: string, sources: string[] | undefined): Promise<void> {
  return config.update((doc: Document) => {
    if (sources === undefined) {
      if (isMap(doc.get('streams'))) doc.deleteIn(['streams', name]);
      return;
    }
    if (!isMap(doc.get('streams'))) doc.set('streams', doc.createNode({}));
    const value = sources.length === 0 ? null : sources.length === 1 ? sources[0] : sources;
    doc.setIn(['streams', name], doc.createNode(value));
  });
}

/** PATCH /api/config: maps merge key by key, lists and scalars replace, null deletes. */
export function mergeIntoDocument(doc: Document, patch: Record<string, unknown>, path: string[] = []): void {
  for (const [key, value] of Object.entries(patch)) {
    const at = [...path, key];
    if (value === null) {
      doc.deleteIn(at);
    } else if (typeof value === 'object' && !Array.isArray(value) && isMap(doc.getIn(at))) {
      mergeIntoDocument(doc, value as Record<string, unknown>, at);
    } else {
      doc.setIn(at, doc.createNode(value));
    }
  }
}
