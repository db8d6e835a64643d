import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { parseDocument, isMap, type Document } from 'yaml';
import { writeFileAtomic } from '../atomic-write';
import { substituteEnv } from './env-substitution';
import { ConfigFileError, ConfigSyntaxError } from './errors';
import { DEFAULT_CONFIG_TEXT } from './default-config';

export type ConfigObject = Record<string, unknown>;

/**
 * The config file: its text as the user wrote it, and the values after `${ENV}` substitution.
 * Every write is validated first and lands atomically; writes are serialised so two edits
 * never interleave. `update` edits the YAML document in place, keeping comments and key order.
 */
export interface ConfigStore {
  readonly path: string;
  /** The file text as written (variables not substituted, secrets as written). */
  raw(): string;
  /** The parsed config after `${ENV}` substitution. */
  effective(): ConfigObject;
  /** One top-level section of the effective config (undefined when absent). */
  section(name: string): unknown;
  /** Parses and validates a text as a write would, without writing; returns its values. */
  check(text: string): ConfigObject;
  /** Replaces the whole file. Throws ConfigSyntaxError and leaves the file untouched if invalid. */
  replace(text: string, guard?: WriteGuard): Promise<void>;
  /** Edits the parsed document (comments kept), validates and writes it. */
  update(edit: (doc: Document) => void, guard?: WriteGuard): Promise<void>;
  /** Called after each successful write. */
  onChange(listener: (store: ConfigStore) => void): () => void;
}

/**
 * Decides whether one write may land, seeing the values it would produce next to the current
 * ones (throws to refuse). It runs inside the write queue, so `current` is what the write replaces
 * even when writes race.
 */
export type WriteGuard = (next: ConfigObject, current: ConfigObject) => void;

/** Limits how many times aliases may be expanded: a few lines of anchors can otherwise grow to gigabytes. */
const MAX_ALIAS_COUNT = 100;

export interface OpenConfigOptions {
  path: string;
  env?: Record<string, string | undefined>;
  /** Write the commented default file when none exists (true for the app, false for tools). */
  createIfMissing?: boolean;
  defaultText?: string;
  /** Checks the values a write would produce (throws ConfigFileError naming the key); runs before anything is written. */
  validate?: (config: ConfigObject) => void;
}

/** Parses YAML config text; the root must be a mapping (or empty). */
export function parseConfigText(text: string): Document {
  const doc = parseDocument(text, { prettyErrors: true });
  const first = doc.errors[0];
  if (first) {
    const pos = first.linePos?.[0];
    const summary = (first.message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, '');
    throw new ConfigSyntaxError(`invalid YAML: ${summary}`, pos?.line, pos?.col);
  }
  if (doc.contents !== null && !isMap(doc.contents)) {
    throw new ConfigSyntaxError('invalid config: the top level must be a mapping of sections (api:, streams:, ...)', 1, 1);
  }
  return doc;
}

/**
 * The values of a parsed document. An alias without its anchor, or aliases that expand beyond
 * MAX_ALIAS_COUNT (an "alias bomb"), are syntax errors of the text, not failures of the server.
 */
export function documentValues(doc: Document): unknown {
  try {
    return doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    if (!(error instanceof ReferenceError)) throw error;
    const reason = /Excessive alias count/.test(error.message)
      ? `aliases expand too much (more than ${MAX_ALIAS_COUNT} expansions); write the values out instead`
      : error.message;
    throw new ConfigSyntaxError(`invalid YAML: ${reason}`);
  }
}

export function effectiveConfig(text: string, env: Record<string, string | undefined>): ConfigObject {
  const value = documentValues(parseConfigText(substituteEnv(text, env)));
  return value && typeof value === 'object' ? (value as ConfigObject) : {};
}

export async function openConfigStore(options: OpenConfigOptions): Promise<ConfigStore> {
  const { path } = options;
  const env = options.env ?? process.env;
  if (!existsSync(path)) {
    if (!options.createIfMissing) throw new ConfigFileError(`config file not found: ${path}`);
    await writeFileAtomic(path, options.defaultText ?? DEFAULT_CONFIG_TEXT);
  }
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new ConfigFileError(`cannot read config file ${path}: ${(error as Error).message}`);
  }
  let effective: ConfigObject;
  try {
    effective = effectiveConfig(text, env);
  } catch (error) {
    // At start the user needs to know which file to fix; a rejected write (the API) already knows.
    throw error instanceof ConfigSyntaxError ? error.inFile(path) : error;
  }
  const listeners = new Set<(store: ConfigStore) => void>();
  let queue: Promise<void> = Promise.resolve();

  const check = (next: string): ConfigObject => {
    const values = effectiveConfig(next, env);
    options.validate?.(values);
    return values;
  };

  const commit = async (next: string, guard?: WriteGuard): Promise<void> => {
    const nextEffective = check(next); // throws before anything is written
    guard?.(nextEffective, effective);
    await writeFileAtomic(path, next);
    text = next;
    effective = nextEffective;
    for (const listener of listeners) listener(store);
  };

  const serialised = (task: () => Promise<void>): Promise<void> => {
    const run = queue.then(task);
    queue = run.catch(() => undefined);
    return run;
  };

  const store: ConfigStore = {
    path,
    raw: () => text,
    effective: () => effective,
    section: (name) => effective[name],
    check,
    replace: (next, guard) => serialised(() => commit(next, guard)),
    update: (edit, guard) =>
      serialised(async () => {
        const doc = parseConfigText(text);
        edit(doc);
        await commit(doc.toString({ lineWidth: 0 }), guard);
      }),
    onChange: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return store;
}
