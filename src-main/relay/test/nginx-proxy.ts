import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { whenListening } from './relay-test-kit';

/** Debian's nginx (`nginx-light`); another binary can be given in `NGINX_PATH`. */
const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx';

/** One request as the proxy logged it. */
interface ProxiedRequest {
  /** The port of the server block that took it. */
  port: number;
  method: string;
  uri: string;
  status: number;
  origin: string;
  secFetchSite: string;
}

export interface NginxProxy {
  /** Where `files` were written: the servers' `root`. */
  root: string;
  /** Every request logged so far, in order. */
  requests(): Promise<ProxiedRequest[]>;
  stop(): Promise<void>;
}

export interface NginxOptions {
  /** The `server { ... }` blocks of the `http` block; `{root}` stands for the folder of `files`. */
  servers: string;
  /** Ports the servers listen on: started once all of them listen. */
  ports: number[];
  /** Files to serve (path under the root → content). */
  files?: Record<string, string>;
}

/**
 * A real nginx on loopback, run as a program (not a system service): its config, pid, logs and
 * temporary files all in a fresh folder, `daemon off`, stopped with the test. The access log
 * keeps each request's port, status, Origin and Sec-Fetch-Site, so a test can tell what the
 * proxy forwarded and what the upstream answered.
 */
export async function startNginx({ servers, ports, files = {} }: NginxOptions): Promise<NginxProxy> {
  const dir = await mkdtemp(join(tmpdir(), 'rc-nginx-'));
  const root = join(dir, 'www');
  await mkdir(root);
  for (const [path, content] of Object.entries(files)) await writeFile(join(root, path), content);
  const temp = (name: string) => `${name}_temp_path ${join(dir, name)};`;
  const config = [
    'worker_processes 1;',
    `pid ${join(dir, 'nginx.pid')};`,
    // Started as root, the workers would otherwise be `nobody` and could not enter this folder.
    ...(process.getuid?.() === 0 ? ['user root;'] : []),
    'events { worker_connections 128; }',
    'http {',
    `  log_format proxied '$server_port\\t$request_method\\t$request_uri\\t$status\\t$http_origin\\t$http_sec_fetch_site';`,
    `  access_log ${join(dir, 'access.log')} proxied;`,
    `  error_log ${join(dir, 'error.log')} warn;`,
    `  ${['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(temp).join(' ')}`,
    '  types { text/html html; application/javascript js; }',
    servers.replaceAll('{root}', root),
    '}',
    '',
  ].join('\n');
  const conf = join(dir, 'nginx.conf');
  await writeFile(conf, config);

  const child = spawn(NGINX, ['-p', dir, '-e', join(dir, 'error.log'), '-c', conf, '-g', 'daemon off;'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  // Not installed: say so (Debian: apt-get install nginx-light) instead of waiting for the ports.
  child.once('error', (error) => {
    stderr += `${NGINX}: ${error.message} (Debian: apt-get install nginx-light, or set NGINX_PATH)\n`;
    child.emit('exit', null);
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
    await rm(dir, { recursive: true, force: true });
  };
  const early = exited.then(async (code) => {
    const log = await readFile(join(dir, 'error.log'), 'utf8').catch(() => '');
    throw new Error(`nginx exited (${code}) before it listened: ${stderr}${log}`);
  });
  try {
    await Promise.race([Promise.all(ports.map((port) => whenListening(port))), early]);
  } catch (error) {
    await stop();
    throw error;
  }
  early.catch(() => undefined);

  const requests = async () =>
    (await readFile(join(dir, 'access.log'), 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const [port, method, uri, status, origin, secFetchSite] = line.split('\t');
        return {
          port: Number(port),
          method: method ?? '',
          uri: uri ?? '',
          status: Number(status),
          origin: origin ?? '',
          secFetchSite: secFetchSite ?? '',
        };
      });
  return { root, requests, stop };
}
