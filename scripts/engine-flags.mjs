// V8 flags the engine process starts with (npm start, npm run serve, bench/relay-fanout).
// A 2 MiB young generation instead of V8's 16 MiB: the relay allocates small, short-lived
// objects (a packet, a frame header) that die young, so scavenges stay cheap, and the process
// stays near 90 MB instead of about 110 with a camera and a hundred viewers.
export const ENGINE_V8_FLAGS = ['--max-semi-space-size=2'];
