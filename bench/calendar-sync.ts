// Calendar delta sync benchmark: `npm run bench:calendar-sync [-- --events 10000 --page-size 50 --rounds 5 --changes 10,100]`
// Seeds a calendar view in the local Graph emulator (real HTTP, in this process), runs the
// initial full synchronisation, then rounds of N changes (adds, edits, moves, deletes, and
// changes outside the window). Per round: time, pages and entries received: an incremental
// round should cost in proportion to the changes, not to the size of the view. Several view
// sizes (`--events 1000,10000`) show the second half of that claim.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createMemoryLogger } from '../src-main/platform/logger';
import { CalendarStore } from '../src-main/directory/calendar/calendar-store';
import { createCalendarSyncEngine, type CalendarSyncEngine } from '../src-main/directory/calendar/calendar-sync-engine';
import { calendarWriter, eventBody, recordingClient } from '../src-main/directory/calendar/emulator-test-client';
import type { CompletedRound } from '../src-main/directory/calendar/sync-state';
import { EventService } from '../src-main/directory/emulator/event-service';
import { GraphStore } from '../src-main/directory/emulator/graph-store';
import { startTestDirectoryEmulator, type TestDirectoryEmulator } from '../src-main/directory/emulator/test-support';
import { TimeZones } from '../src-main/directory/emulator/time-zones';

const { values } = parseArgs({
  options: {
    events: { type: 'string', default: '10000' },
    'page-size': { type: 'string', default: '50' },
    rounds: { type: 'string', default: '5' },
    changes: { type: 'string', default: '10,100' },
    concurrency: { type: 'string', default: '16' },
    // store: through the emulator's own event service, straight into its database while it is
    // stopped (fast); http: one POST /users/{id}/events per event (slow: ~8 ms each here).
    seed: { type: 'string', default: 'store' },
  },
  allowPositionals: true,
});
const viewSizes = values.events.split(',').map(Number);
const pageSize = Number(values['page-size']);
const roundsPerSize = Number(values.rounds);
const changeCounts = values.changes.split(',').map(Number);
const concurrency = Number(values.concurrency);

const DAY_MS = 86_400_000;
const WINDOW_START = Date.UTC(2030, 0, 1);
const WINDOW_DAYS = 365;
const WINDOW = { start: new Date(WINDOW_START).toISOString(), end: new Date(WINDOW_START + WINDOW_DAYS * DAY_MS).toISOString() };

/** A small deterministic generator, so every run makes the same calendar and the same changes. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const userFor = (viewSize: number) => ({
  id: `0b5e0c1a-0000-4000-a000-${String(viewSize).padStart(12, '0')}`,
  userPrincipalName: `bench-${viewSize}@emulator.test`,
  password: 'bench-password',
});
const wall = (ms: number) => new Date(ms).toISOString().slice(0, 19);
/** An hour-long event at a random half hour of the window (or of the year after it, outside). */
function draft(random: () => number, subject: string, outside = false) {
  const day = Math.floor(random() * WINDOW_DAYS) + (outside ? WINDOW_DAYS + 30 : 0);
  const start = WINDOW_START + day * DAY_MS + Math.floor(random() * 44) * 1_800_000;
  return { subject, start: wall(start), end: wall(start + 3_600_000) };
}
const slot = (d: { start: string; end: string }) => ({
  start: { dateTime: d.start, timeZone: 'UTC' },
  end: { dateTime: d.end, timeZone: 'UTC' },
});

async function inParallel<T>(items: T[], work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

interface Row {
  view: number;
  kind: string;
  changes: number;
  ms: number;
  /** Of `ms`, the time spent applying pages to the local SQLite copy. */
  applyMs: number;
  pages: number;
  received: number;
  added: number;
  updated: number;
  removed: number;
}

/** Wraps the store's applyPage to add up the time the local copy takes. */
function timeApplies(store: CalendarStore): { take(): number } {
  const apply = store.applyPage.bind(store);
  let spent = 0;
  store.applyPage = (...args) => {
    const started = performance.now();
    try {
      return apply(...args);
    } finally {
      spent += performance.now() - started;
    }
  };
  return {
    take() {
      const value = spent;
      spent = 0;
      return value;
    },
  };
}

async function timedRound(
  sync: CalendarSyncEngine,
  store: CalendarStore,
  applies: { take(): number },
  view: number,
  changes: number,
): Promise<Row> {
  applies.take();
  const started = performance.now();
  const status = await sync.syncNow();
  const ms = performance.now() - started;
  const applyMs = applies.take();
  if (status.state !== 'idle') throw new Error(`round failed: ${status.lastError?.message}`);
  const round = store.currentView()!.counters.lastRound as CompletedRound;
  return {
    view,
    kind: round.kind,
    changes,
    ms,
    applyMs,
    pages: round.pages,
    received: round.received,
    added: round.added,
    updated: round.updated,
    removed: round.removed,
  };
}

/** Creates the events of every view through the emulator's event service, in one transaction. */
function seedThroughStore(dataDir: string): Map<number, string[]> {
  const store = new GraphStore(join(dataDir, 'directory', 'graph.sqlite'), 1_000_000);
  const events = new EventService(store, new TimeZones(), Date.now);
  const ids = new Map<number, string[]>();
  try {
    store.transaction(() => {
      for (const size of viewSizes) {
        const random = prng(size);
        const made: string[] = [];
        for (let i = 0; i < size; i++) made.push(events.create(userFor(size).id, eventBody(draft(random, `seeded ${i}`))).id);
        ids.set(size, made);
      }
    });
  } finally {
    store.close();
  }
  return ids;
}

async function seedOverHttp(emu: TestDirectoryEmulator, viewSize: number): Promise<string[]> {
  const random = prng(viewSize);
  const writer = calendarWriter(recordingClient(emu, { keepBodies: false }).client, userFor(viewSize).id);
  const made: string[] = [];
  await inParallel(
    Array.from({ length: viewSize }, (_, i) => i),
    async (i) => void made.push((await writer.create(draft(random, `seeded ${i}`))).id),
  );
  return made;
}

async function benchViewSize(emu: TestDirectoryEmulator, dir: string, viewSize: number, seeded: string[], rows: Row[]): Promise<void> {
  const random = prng(viewSize * 7 + 1);
  // One user per view size, so the views do not mix.
  const userId = userFor(viewSize).id;
  const writer = calendarWriter(recordingClient(emu, { keepBodies: false }).client, userId);
  const live = [...seeded];

  const store = new CalendarStore(join(dir, `calendar-${viewSize}.sqlite`));
  const { client } = recordingClient(emu, { keepBodies: false });
  const applies = timeApplies(store);
  const sync = createCalendarSyncEngine({ client, store, logger: createMemoryLogger('warn') });
  try {
    await sync.start({ user: userId, start: WINDOW.start, end: WINDOW.end, intervalSeconds: 86_400, pageSize });
    rows.push(await timedRound(sync, store, applies, viewSize, viewSize));
    rows.push(await timedRound(sync, store, applies, viewSize, 0));

    for (const changes of changeCounts) {
      for (let round = 0; round < roundsPerSize; round++) {
        // The mix of one round: 40% edits, 20% moves in the window, 15% adds, 15% deletes,
        // 10% adds outside the window (which arrive as @removed and are ignored).
        const work: (() => Promise<void>)[] = [];
        for (let i = 0; i < changes; i++) {
          const roll = random();
          const pick = () => live[Math.floor(random() * live.length)]!;
          if (roll < 0.4) work.push(async () => void (await writer.update(pick(), { subject: `edited ${round}.${i}` })));
          else if (roll < 0.6) work.push(async () => void (await writer.update(pick(), slot(draft(random, '')))));
          else if (roll < 0.75) work.push(async () => void live.push((await writer.create(draft(random, `added ${round}.${i}`))).id));
          else if (roll < 0.9) {
            const id = live.splice(Math.floor(random() * live.length), 1)[0]!;
            work.push(() => writer.remove(id));
          } else work.push(async () => void (await writer.create(draft(random, `outside ${round}.${i}`, true))));
        }
        // One at a time: two edits of one event must land in order.
        for (const change of work) await change();
        rows.push(await timedRound(sync, store, applies, viewSize, changes));
      }
    }
  } finally {
    await sync.close();
    store.close();
  }
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-calendar-'));
  const dataDir = join(dir, 'emulator');
  const options = { dataDir, changeLogLimit: 1_000_000, users: viewSizes.map(userFor) };
  const rows: Row[] = [];
  let emu: TestDirectoryEmulator | undefined;
  try {
    console.log(`\nCalendar delta sync benchmark (emulator in this process, real HTTP; page size ${pageSize})\n`);
    // A first start creates the emulator's database and users.
    emu = await startTestDirectoryEmulator(options);
    const seedStarted = performance.now();
    let seeded: Map<number, string[]>;
    if (values.seed === 'http') {
      seeded = new Map();
      for (const size of viewSizes) seeded.set(size, await seedOverHttp(emu, size));
    } else {
      await emu.close();
      seeded = seedThroughStore(dataDir);
      emu = await startTestDirectoryEmulator(options);
    }
    const total = viewSizes.reduce((a, b) => a + b, 0);
    console.log(`seeded ${total} events (${values.seed}) in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`);
    for (const size of viewSizes) await benchViewSize(emu, dir, size, seeded.get(size)!, rows);
  } finally {
    await emu?.close();
    await rm(dir, { recursive: true, force: true });
  }

  const header = ['view', 'round', 'changes', 'ms', 'apply ms', 'pages', 'entries', 'added', 'updated', 'removed'];
  const table = rows.map((r) => [
    String(r.view),
    r.kind,
    String(r.changes),
    r.ms.toFixed(1),
    r.applyMs.toFixed(1),
    String(r.pages),
    String(r.received),
    String(r.added),
    String(r.updated),
    String(r.removed),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 1 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log('\n' + line(header));
  for (const row of table) console.log(line(row));

  console.log('\nmean of the incremental rounds with changes:');
  for (const size of viewSizes) {
    for (const changes of changeCounts) {
      const picked = rows.filter((r) => r.view === size && r.kind === 'incremental' && r.changes === changes);
      const mean = (f: (r: Row) => number) => picked.reduce((sum, r) => sum + f(r), 0) / picked.length;
      console.log(
        `  view ${size}, ${changes} changes: ${mean((r) => r.ms).toFixed(1)} ms (apply ${mean((r) => r.applyMs).toFixed(1)} ms), ${mean((r) => r.pages).toFixed(1)} pages, ${mean((r) => r.received).toFixed(1)} entries`,
      );
    }
  }
}

await main();
