import { execFile } from 'node:child_process';
import type { ProtocolContext } from '../protocol-context';
import { splitCommandLine } from '../exec/exec-protocol';

const ECHO_TIMEOUT_MS = 10_000;

/**
 * `echo:` sources as go2rtc has them: run a command, and use the first line it prints as the
 * source URL (for URLs with a token fetched at dial time). Config file only: it runs code.
 */
export function registerEcho({ schemes }: ProtocolContext): void {
  schemes.register('echo', {
    runsCode: true,
    dial: async (source, context) => {
      const [file = '', ...args] = splitCommandLine(source.replace(/^echo:/, ''));
      const printed = await new Promise<string>((resolve, reject) => {
        execFile(file, args, { timeout: ECHO_TIMEOUT_MS, signal: context.signal }, (error, stdout, stderr) => {
          if (error) reject(new Error(`echo: ${file} failed: ${(stderr || error.message).trim().split('\n').pop()}`));
          else resolve(stdout);
        });
      });
      const url = printed.trim().split('\n')[0]?.trim() ?? '';
      const handler = schemes.resolve(url);
      if (!url || !handler)
        throw new Error(`echo: ${file} printed ${url ? `a source this relay does not support (${url.split(':')[0]})` : 'nothing'}`);
      if (handler.runsCode) throw new Error('echo: the printed source may not run commands itself');
      return handler.dial(url, context);
    },
  });
}
