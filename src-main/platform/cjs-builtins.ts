import type * as Http from 'node:http';
import { createRequire } from 'node:module';
import type * as Tls from 'node:tls';

// Node built-ins whose exports include lazy getters, loaded with require instead of `import`.
// An ES module import of a built-in builds its namespace from every export, so it runs every
// getter: node:http's WebSocket, CloseEvent and MessageEvent load undici (fetch's
// implementation, with http2, zlib, web streams and perf_hooks: about 10 MiB of RSS in a bare
// Node, 3.5 MiB in the engine, which never calls fetch at start), and node:tls's
// rootCertificates parses the whole root store.
// require hands the exports object itself, and a getter runs only where it is read.
// (eslint.config.js refuses a value import of either elsewhere in main; type imports are free.)
const requireBuiltin = createRequire(import.meta.url);

export const nodeHttp: typeof Http = requireBuiltin('node:http');
export const nodeTls: typeof Tls = requireBuiltin('node:tls');
