import { isMap, isScalar, type Document } from 'yaml';
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
    else if (Array.isArray(sources))
      streams.set(
        name,
        sources.filter((s): s is string => typeof s === 'string' && s !== ''),
      );
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
    doc.setIn(['streams', name], doc.createNode(sourcesValue(sources)));
  });
}

/**
 * Renames a stream and sets its sources in one write, so the file on disk never holds both
 * names or neither. The entry keeps its place and its comments; only its key and value change.
 */
export function persistRename(config: ConfigStore, from: string, to: string, sources: string[]): Promise<void> {
  return config.update((doc: Document) => {
    const section = doc.get('streams');
    const pair = isMap(section) ? section.items.find((item) => (isScalar(item.key) ? item.key.value : item.key) === from) : undefined;
    if (!pair) {
      // Not in the file (a stream kept only in memory): written under its new name.
      if (!isMap(section)) doc.set('streams', doc.createNode({}));
      doc.setIn(['streams', to], doc.createNode(sourcesValue(sources)));
      return;
    }
    // The key node itself is kept (with a comment above it); only its text changes.
    if (isScalar(pair.key)) pair.key.value = to;
    else pair.key = doc.createNode(to);
    pair.value = doc.createNode(sourcesValue(sources));
  });
}

/** One source as a scalar, several as a list, none as an empty value (a publish target). */
const sourcesValue = (sources: string[]) => (sources.length === 0 ? null : sources.length === 1 ? sources[0] : sources);

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
