// A forward proxy for SDKs in other languages (curl honours http_proxy and https_proxy): requests
// and CONNECT tunnels to Qiniu's public host names go to the storage emulator's port, the Host
// header and TLS name kept, as a hosts file plus a port mapping would send them. For any other
// host the connection is closed without an answer, as an unresolvable name fails a client: the
// suites run without the internet.
import { createServer, request } from 'node:http';
import { connect } from 'node:net';

/** `.example.com` stands for every name under it; anything else for itself. */
export const hostMatcher = (names) => (host) => names.some((name) => (name.startsWith('.') ? host.endsWith(name) : host === name));

export function startHostProxy({ port, names }) {
  const redirected = hostMatcher(names);
  const server = createServer((req, res) => {
    let target;
    try {
      target = new URL(req.url);
    } catch {
      res.writeHead(400).end('absolute URL expected');
      return;
    }
    if (!redirected(target.hostname)) {
      req.socket.destroy();
      return;
    }
    const upstream = request(
      { host: '127.0.0.1', port, method: req.method, path: `${target.pathname}${target.search}`, headers: req.headers },
      (reply) => {
        res.writeHead(reply.statusCode ?? 502, reply.rawHeaders);
        reply.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.on('connect', (req, client, head) => {
    const [host] = (req.url ?? '').split(':');
    if (!redirected(host)) {
      client.destroy();
      return;
    }
    const upstream = connect(port, '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  return new Promise((ready) => server.listen(0, '127.0.0.1', () => ready({ port: server.address().port, close: () => server.close() })));
}
