// V8 flags (and, below, allocator settings) the engine process starts with (npm start, npm run
// serve, the emulators on their own, bench/relay-fanout,
// bench/recordings).
// A 2 MiB young generation instead of V8's 16 MiB: the relay allocates small, short-lived
// objects (a packet, a frame header) that die young, so scavenges stay cheap, and the process
// stays near 90 MB instead of about 110 with a camera and a hundred viewers.
//
// Full collections only once the old generation has used most of the room the last one left
// it (80 % starts incremental marking, 95 % forces it). Left to its own heuristic, V8 started
// marking the whole heap about once a second while the engine recorded eight cameras (a
// "soft limit" that its young generation's size trips on a small heap), and marking was 40 %
// of the engine's CPU; with these triggers two full collections ran in 45 s, both for the
// media buffers outside the heap.
export const ENGINE_V8_FLAGS = [
  '--max-semi-space-size=2',
  '--incremental-marking-soft-trigger=80',
  '--incremental-marking-hard-trigger=95',
];

// glibc's allocator settings for the engine process (read by glibc when a process starts, so
// they are given to the spawned engine). The relay's media buffers (reads, frames joined for
// viewers, keyframes) are malloc'd outside V8's heap and freed in bursts at each full
// collection; left to its defaults glibc keeps the high-water mark in per-thread arenas and
// raises its mmap threshold after the first large free, so RSS only climbs. Fixed thresholds
// give buffers of 64 KiB and more back to the system when freed and trim the heap's top above
// 128 KiB; two arenas instead of eight per core. With a hundred RTSP viewers of one camera
// (bench:relay-fanout, three windows a run): largest RSS 104, 107 and 118 MB in three runs
// against 115 and 119 without, anonymous memory at its peak about 50 MB instead of 60, CPU
// unchanged.
export const ENGINE_MALLOC_ENV = {
  MALLOC_ARENA_MAX: '2',
  MALLOC_MMAP_THRESHOLD_: '65536',
  MALLOC_TRIM_THRESHOLD_: '131072',
};

/** The environment to spawn the engine with: the caller's, with the allocator settings it has not set itself. */
export function engineEnv(env = process.env) {
  return { ...ENGINE_MALLOC_ENV, ...env };
}
