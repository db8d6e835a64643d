// V8 flags (and, below, allocator settings) the engine process starts with (npm start, npm run
// serve, the emulators on their own, bench/relay-fanout,
// bench/recordings).
// A young generation of at most 8 MiB a semi-space (V8 grows it to that only when objects
// survive): a camera's packets live as long as its GOP cache keeps them (about 2 s), so with
// 2 MiB, scavenges every half second moved them to the old generation and a full collection
// followed every few seconds; with 8 they die young. Recording eight cameras
// (bench:recordings) it took the engine from 1.2-1.3 to about 1.05 of eight ffmpeg's CPU; a
// hundred viewers of one camera (bench:relay-fanout) cost about 10 MB more RSS. The engine's
// start grows it to that size at once; src-main/platform/startup-memory.ts shrinks it again
// three seconds later, and V8 grows it back only as far as the load asks.
//
// Full collections only once the old generation has used most of the room the last one left
// it (80 % starts incremental marking, 95 % forces it). Left to its own heuristic, V8 started
// marking the whole heap about once a second while the engine recorded eight cameras (a
// "soft limit" that its young generation's size trips on a small heap), and marking was 40 %
// of the engine's CPU; with these triggers two full collections ran in 45 s, both for the
// media buffers outside the heap.
export const ENGINE_V8_FLAGS = [
  '--max-semi-space-size=8',
  '--incremental-marking-soft-trigger=80',
  '--incremental-marking-hard-trigger=95',
];

// glibc's allocator settings for the engine process (read by glibc when a process starts, so
// they are given to the spawned engine). The relay's media buffers (reads, frames, keyframes)
// are malloc'd outside V8's heap and freed in bursts at each collection. Left to its defaults
// glibc keeps the high-water mark in eight arenas a core and raises its mmap threshold after
// the first large free, so RSS only climbs. Fixed thresholds: buffers of 1 MiB and more (an
// upload's body) get memory of their own, given back when freed; the slabs that reads and
// frames are written into (256 KiB) come from the heap and reuse its freed memory, which the
// system does not have to hand over page by page again (at 64 KiB they were each a fresh
// mapping: 1,600 page faults a second recording eight cameras, against about 200 now); the
// heap's top is trimmed above 4 MiB free. Two arenas instead of eight per core.
export const ENGINE_MALLOC_ENV = {
  MALLOC_ARENA_MAX: '2',
  MALLOC_MMAP_THRESHOLD_: String(1024 * 1024),
  MALLOC_TRIM_THRESHOLD_: String(4 * 1024 * 1024),
};

/** The environment to spawn the engine with: the caller's, with the allocator settings it has not set itself. */
export function engineEnv(env = process.env) {
  return { ...ENGINE_MALLOC_ENV, ...env };
}
