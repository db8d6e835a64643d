import { createHash } from 'node:crypto';
import { open, readdir, readFile, rename, rm, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { appendToNewFile } from './spool-file';

/** Where a spooled segment goes, and what it says of itself there. */
const uploadTargetSchema = z.object({
  stream: z.string(),
  account: z.string(),
  bucket: z.string(),
  key: z.string(),
  metadata: z.record(z.string(), z.string()),
  startMs: z.number(),
  endMs: z.number(),
  durationMs: z.number(),
  codecs: z.string(),
  initId: z.string(),
});
export type UploadTarget = z.infer<typeof uploadTargetSchema>;

/** A finished segment waiting in the spool for its upload. */
export interface SpoolEntry {
  id: string;
  file: string;
  bytes: number;
  target: UploadTarget;
}

/** The segment being written: bytes appended in order, then finished (or abandoned). */
export interface OpenSpoolFile {
  /** Appends bytes, or pieces one after another in one gathering write. */
  write(data: Uint8Array | readonly Uint8Array[]): void;
  /** Flushed to disk, then made an entry at once: a crash after this loses nothing. */
  finish(target: UploadTarget): Promise<SpoolEntry>;
  abandon(): Promise<void>;
}

export interface Spool {
  readonly dir: string;
  begin(stream: string): OpenSpoolFile;
  /** Finished segments of a stream, oldest first. */
  entries(stream: string): SpoolEntry[];
  /** Every stream with spooled segments (after a restart: those of the last run, whatever the config says now). */
  streams(): string[];
  /**
   * Files of a stream's segments begun and not yet entries (`<id>.part`), oldest first: the one
   * being written, and one being finished at a cut. A clip reads their whole fragments.
   */
  writing(stream: string): string[];
  remove(entry: SpoolEntry): Promise<void>;
}

/**
 * The local spool under `data_dir/recordings/spool`: one folder per stream (named by a digest:
 * stream names are the user's), a segment written as `<id>.part`, then its target as
 * `<id>.json` (atomically) and the file renamed to `<id>.mp4`. A kill -9 leaves at most the open
 * `.part`, which the next start removes; a `.json` without its `.mp4` (killed between the two)
 * goes too, and a finished `.mp4` with its `.json` is uploaded then.
 */
export async function openSpool(dir: string): Promise<Spool> {
  // Made with the first segment: an engine that records nothing leaves no folder behind.
  const byStream = new Map<string, SpoolEntry[]>();
  for (const folder of await readdir(dir).catch(() => [] as string[])) await recoverFolder(join(dir, folder), byStream);
  let counter = 0;
  const writing = new Map<string, Set<string>>();
  const folderOf = (stream: string) => join(dir, createHash('sha256').update(stream).digest('hex').slice(0, 24));
  const listOf = (stream: string) => {
    let list = byStream.get(stream);
    if (!list) byStream.set(stream, (list = []));
    return list;
  };

  return {
    dir,
    begin(stream) {
      const folder = folderOf(stream);
      // Names sort in the order segments began: the upload order after a restart.
      const id = `${String(Date.now()).padStart(15, '0')}-${String(counter++ % 1e6).padStart(6, '0')}`;
      const part = join(folder, `${id}.part`);
      let bytes = 0;
      const parts = writing.get(stream) ?? new Set<string>();
      writing.set(stream, parts.add(part));
      const done = () => void parts.delete(part);
      const appended = appendToNewFile(part, folder);
      return {
        write(data) {
          const parts = data instanceof Uint8Array ? [data] : data;
          for (const part of parts) bytes += part.length;
          appended.write(parts);
        },
        async finish(target) {
          await appended.finish();
          // The rename below is what makes the segment an entry: a target cut short by a kill
          // (or a power loss) has no .mp4 beside it and goes at the next start, so it needs no
          // temporary file of its own, only to be on disk before the rename.
          await writeDurably(join(folder, `${id}.json`), JSON.stringify(target));
          const file = join(folder, `${id}.mp4`);
          await rename(part, file);
          const entry = { id, file, bytes, target };
          listOf(stream).push(entry);
          done();
          return entry;
        },
        async abandon() {
          done();
          await appended.close();
          await rm(part, { force: true });
        },
      };
    },
    writing: (stream) => [...(writing.get(stream) ?? [])],
    entries: (stream) => [...(byStream.get(stream) ?? [])],
    streams: () => [...byStream].filter(([, list]) => list.length > 0).map(([stream]) => stream),
    async remove(entry) {
      const list = byStream.get(entry.target.stream);
      const at = list?.indexOf(entry) ?? -1;
      if (at >= 0) list!.splice(at, 1);
      await removeFile(entry.file);
      await removeFile(entry.file.replace(/\.mp4$/, '.json'));
    },
  };
}

/** Removes a file that may be gone already: one call (`rm` looks at what the path is first). */
async function removeFile(path: string): Promise<void> {
  await unlink(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
  });
}

/** Writes a new file and flushes it to disk before resolving. */
async function writeDurably(path: string, text: string): Promise<void> {
  const handle = await open(path, 'w', 0o644);
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function recoverFolder(folder: string, byStream: Map<string, SpoolEntry[]>): Promise<void> {
  const names = await readdir(folder).catch(() => [] as string[]);
  const ready: SpoolEntry[] = [];
  for (const name of names.sort()) {
    const path = join(folder, name);
    if (name.endsWith('.part') || name.endsWith('.tmp')) {
      await rm(path, { force: true });
      continue;
    }
    if (!name.endsWith('.json')) continue;
    const file = path.replace(/\.json$/, '.mp4');
    const target = await readFile(path, 'utf8')
      .then(
        (text) => uploadTargetSchema.safeParse(JSON.parse(text)),
        () => undefined,
      )
      .catch(() => undefined);
    const size = await stat(file).then(
      (s) => s.size,
      () => undefined,
    );
    if (!target?.success || size === undefined) {
      await rm(path, { force: true });
      continue;
    }
    ready.push({ id: name.replace(/\.json$/, ''), file, bytes: size, target: target.data });
  }
  // An .mp4 whose .json never came: never finished, so never listed anywhere.
  const kept = new Set(ready.map((e) => e.file));
  for (const name of names) if (name.endsWith('.mp4') && !kept.has(join(folder, name))) await rm(join(folder, name), { force: true });
  for (const entry of ready) {
    const list = byStream.get(entry.target.stream) ?? [];
    list.push(entry);
    byStream.set(entry.target.stream, list);
  }
}
