import { isMap, isScalar, type Document } from 'yaml';
import type { ConfigStore } from '@main/platform/config/config-store';

/**
 * Writes one relay's address into the config's `relays:` (undefined removes it), keeping the
 * file's comments and order; with `from`, the entry of that name is renamed in the same write,
 * so the file never holds both names or neither.
 */
export function persistRelay(config: ConfigStore, name: string, url: string | undefined, from?: string): Promise<void> {
  return config.update((doc: Document) => {
    const section = doc.get('relays');
    if (url === undefined) {
      if (isMap(section)) doc.deleteIn(['relays', name]);
      return;
    }
    const old = from && from !== name && isMap(section) ? section.items.find((item) => keyOf(item.key) === from) : undefined;
    if (old) {
      // The key node stays (with a comment above it); only its text and value change.
      if (isScalar(old.key)) old.key.value = name;
      else old.key = doc.createNode(name);
      old.value = doc.createNode(url);
      return;
    }
    if (!isMap(section)) doc.set('relays', doc.createNode({}));
    doc.setIn(['relays', name], doc.createNode(url));
  });
}

const keyOf = (key: unknown) => (isScalar(key) ? key.value : key);
