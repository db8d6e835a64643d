import type { ProtocolContext } from '../protocol-context';
import { dialPublishingChild } from '../ffmpeg/publishing-child';
import type { RunningRtspServer } from '../rtsp/rtsp-server';

/** Splits a command line on spaces, honouring "double" and 'single' quotes. */
export function splitCommandLine(line: string): string[] {
  const parts: string[] = [];
  for (const match of line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) parts.push(match[1] ?? match[2] ?? match[3] ?? '');
  return parts;
}

/**
 * `exec:` sources as go2rtc has them: a command that publishes to `{output}` (an RTSP URL of
 * this relay). It runs code on this machine, so it is accepted from the config file only.
 */
export function registerExec({ schemes, tasks }: ProtocolContext, rtsp: RunningRtspServer): void {
  schemes.register('exec', {
    runsCode: true,
    dial: async (source, context) => {
      const line = source.replace(/^exec:/, '').split('#')[0]!;
      if (!line.includes('{output}'))
        throw new Error('exec: the command must publish to {output}, e.g. exec:ffmpeg -re -i file.mp4 -c copy -f rtsp {output}');
      return dialPublishingChild({
        rtsp,
        tasks,
        context,
        formatName: 'exec',
        command: (output) => {
          const [file = '', ...args] = splitCommandLine(line).map((part) => part.replaceAll('{output}', output));
          return { file, args };
        },
      });
    },
  });
}
