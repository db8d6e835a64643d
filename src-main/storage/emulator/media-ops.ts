import { spawn } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { KodoError } from './kodo-error';

export interface MediaOutput {
  body: Buffer;
  contentType: string;
  /** Extra files (HLS segments) named relative to the playlist. */
  extras?: { name: string; body: Buffer; contentType: string }[];
}

export const MEDIA_COMMANDS: ReadonlySet<string> = new Set(['avthumb', 'vframe', 'avinfo']);

/**
 * ffmpeg names its files in its messages (`/srv/relay/storage/objects/3f2a: Invalid data found`); what the
 * client reads of a failure names none of the server's paths.
 */
function withoutPaths(text: string, args: string[]): string {
  const paths = [...new Set(args.filter((arg) => isAbsolute(arg)).flatMap((path) => [path, dirname(path)]))]
    .filter((path) => path.length > 1)
    .sort((a, b) => b.length - a.length);
  return paths.reduce((out, path) => out.split(path).join('<file>'), text);
}

function run(cmd: string, args: string[], timeoutMs = 120_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-4000)));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(new KodoError(500, `${cmd} could not start: ${e.message}`));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(out);
      else reject(new KodoError(400, `${cmd} failed: ${withoutPaths(err.trim().split('\n').slice(-2).join(' '), args)}`));
    });
  });
}

function pairs(parts: string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (let i = 0; i + 1 < parts.length; i += 2) out.set(parts[i]!, parts[i + 1]!);
  return out;
}

function bitrate(v: string): string {
  return /^\d+$/.test(v) ? `${Math.round(Number(v) / 1000)}k` : v;
}

/**
 * avthumb/<mp4|m3u8>, vframe/<jpg|png>/offset/<s>, avinfo, through ffmpeg/ffprobe. `input` is
 * the bytes, or the path of a file holding them (an object's blob: no copy).
 */
export async function runMediaCommand(input: Buffer | string, command: string): Promise<MediaOutput> {
  const parts = command.split('/').filter((p) => p !== '');
  const [name, format] = parts;
  const dir = await mkdtemp(join(tmpdir(), 'kodo-fop-'));
  try {
    const source = typeof input === 'string' ? input : join(dir, 'input');
    if (typeof input !== 'string') await writeFile(source, input);
    if (name === 'avinfo') {
      const text = await run('ffprobe', ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', source]);
      return { body: Buffer.from(text), contentType: 'application/json' };
    }
    if (name === 'vframe') {
      if (format !== 'jpg' && format !== 'png') throw new KodoError(400, 'vframe: format must be jpg or png');
      const opts = pairs(parts.slice(2));
      const target = join(dir, `frame.${format}`);
      const args = ['-v', 'error', '-ss', String(Number(opts.get('offset') ?? 0)), '-i', source, '-frames:v', '1'];
      const w = opts.get('w');
      const h = opts.get('h');
      if (w || h) args.push('-vf', `scale=${w ?? -2}:${h ?? -2}`);
      if (opts.has('rotate')) args.push('-metadata:s:v', `rotate=${opts.get('rotate')}`);
      args.push('-y', target);
      await run('ffmpeg', args);
      return { body: await readFile(target), contentType: format === 'jpg' ? 'image/jpeg' : 'image/png' };
    }
    if (name === 'avthumb') {
      const opts = pairs(parts.slice(2));
      const args = ['-v', 'error'];
      if (opts.has('ss')) args.push('-ss', opts.get('ss')!);
      args.push('-i', source);
      if (opts.has('t')) args.push('-t', opts.get('t')!);
      if (opts.get('an') === '1') args.push('-an');
      if (opts.get('vn') === '1') args.push('-vn');
      const vcodec = opts.get('vcodec') ?? 'libx264';
      const acodec = opts.get('acodec') ?? 'aac';
      args.push('-c:v', vcodec === 'copy' ? 'copy' : vcodec, '-c:a', acodec === 'copy' ? 'copy' : acodec);
      if (vcodec === 'libx264') args.push('-preset', 'veryfast', '-pix_fmt', 'yuv420p');
      if (opts.has('vb')) args.push('-b:v', bitrate(opts.get('vb')!));
      if (opts.has('ab')) args.push('-b:a', bitrate(opts.get('ab')!));
      if (opts.has('r')) args.push('-r', opts.get('r')!);
      if (opts.has('s')) args.push('-vf', `scale=${opts.get('s')!.replace('x', ':')}`);
      if (format === 'mp4') {
        const target = join(dir, 'out.mp4');
        await run('ffmpeg', [...args, '-movflags', '+faststart', '-f', 'mp4', '-y', target]);
        return { body: await readFile(target), contentType: 'video/mp4' };
      }
      if (format === 'm3u8') {
        const segtime = opts.get('segtime') ?? '10';
        const target = join(dir, 'out.m3u8');
        await run('ffmpeg', [
          ...args,
          '-f',
          'hls',
          '-hls_time',
          segtime,
          '-hls_list_size',
          '0',
          '-hls_segment_filename',
          join(dir, 'seg%03d.ts'),
          '-y',
          target,
        ]);
        const extras = [];
        for (const file of (await readdir(dir)).filter((f) => f.endsWith('.ts')).sort()) {
          extras.push({ name: file, body: await readFile(join(dir, file)), contentType: 'video/mp2t' });
        }
        return { body: await readFile(target), contentType: 'application/x-mpegurl', extras };
      }
      throw new KodoError(400, `avthumb: unsupported format ${format ?? ''}`);
    }
    throw new KodoError(400, `unsupported processing command ${name ?? ''}`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
