import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { ConnectionInfo, DialContext, ProducerConnection } from '../../core/producer';
import type { TaskRegistry } from '../../core/task-registry';
import type { RunningRtspServer } from '../rtsp/rtsp-server';

export interface PublishingChildOptions {
  rtsp: RunningRtspServer;
  tasks: TaskRegistry;
  context: DialContext;
  /** Builds the command line from the RTSP URL the child must publish to. */
  command: (output: string) => { file: string; args: string[] };
  /** What the stats show as the source (never the full command, which may hold secrets). */
  formatName: string;
  timeoutMs?: number;
}

/**
 * Runs a child process (ffmpeg, or an exec: command) that publishes into this relay's RTSP
 * server, and hands its stream over as a producer. The child dies with the connection: when
 * the last viewer leaves, at shutdown, or when the stream is deleted.
 */
export async function dialPublishingChild(options: PublishingChildOptions): Promise<ProducerConnection> {
  const path = `publish-${randomBytes(8).toString('hex')}`;
  const output = `rtsp://127.0.0.1:${options.rtsp.port}/${path}`;
  const { file, args } = options.command(output);
  const published = options.rtsp.expectPublish(path, options.timeoutMs ?? 15_000);
  const child = spawn(file, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  const untrack = options.tasks.add('child', `${options.formatName} pid ${child.pid ?? '?'} for ${options.context.streamName}`);
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
  const exited = new Promise<Error | undefined>((resolve) => {
    child.once('error', (error) => resolve(new Error(`${options.formatName}: ${error.message}`)));
    child.once('exit', (code, signal) =>
      resolve(code === 0 || signal ? undefined : new Error(`${options.formatName} exited with ${code}: ${lastLine(stderr)}`)),
    );
  }).finally(untrack);
  const kill = () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 2_000).unref();
  };
  options.context.signal.addEventListener('abort', kill, { once: true });

  let connection: ProducerConnection;
  try {
    connection = await Promise.race([
      published,
      exited.then((error) => Promise.reject(error ?? new Error(`${options.formatName} ended before publishing`))),
    ]);
  } catch (error) {
    kill();
    throw error;
  }
  const closed = Promise.race([connection.closed, exited]).then((error) => {
    kill();
    connection.close();
    return error;
  });
  return {
    medias: connection.medias,
    closed,
    start: (sink) => connection.start(sink),
    close: () => {
      kill();
      connection.close();
    },
    info: (): ConnectionInfo => ({
      ...connection.info(),
      format_name: options.formatName,
      source: options.formatName,
      remote_addr: `pid ${child.pid}`,
    }),
  };
}

function lastLine(text: string): string {
  return text.trim().split('\n').pop() ?? '';
}
