// V8 flags the engine process starts with (npm start, npm run serve, the emulators on their own, bench/relay-fanout,
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
