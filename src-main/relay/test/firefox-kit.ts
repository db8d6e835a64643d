import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { within } from '../../test-support/time';

/**
 * Debian's Firefox ESR, driven over WebDriver BiDi (its own remote protocol, nothing to patch
 * or download): playwright-core drives only Playwright's own Firefox build, which this machine
 * cannot fetch. One tab, enough for a page that plays media.
 */
export interface FirefoxTab {
  /** Loads `url`; `wait: 'none'` returns once the navigation started (a live stream never completes). */
  navigate(url: string, wait?: 'none' | 'complete'): Promise<void>;
  /** Runs `fn(arg)` in the page (serialized: it may use nothing from outside) and returns its JSON-able result, awaited. */
  evaluate<T, A = undefined>(fn: (arg: A) => T | Promise<T>, arg?: A): Promise<T>;
  close(): Promise<void>;
}

/** Preferences of the test profile: media plays by itself, JSON is shown as text, nothing calls home. */
const PREFS = {
  'media.autoplay.default': 0,
  'media.autoplay.blocking_policy': 0,
  'devtools.jsonview.enabled': false,
  'app.update.disabledForTesting': true,
  'browser.shell.checkDefaultBrowser': false,
  'datareporting.policy.dataSubmissionEnabled': false,
  'toolkit.telemetry.reportingpolicy.firstRun': false,
  'network.captive-portal-service.enabled': false,
  'network.connectivity-service.enabled': false,
  'browser.safebrowsing.update.enabled': false,
};

interface BidiReply {
  id?: number;
  type: 'success' | 'error' | 'event';
  result?: Record<string, unknown>;
  error?: string;
  message?: string;
}

/** Starts headless Firefox ESR (`FIREFOX_PATH`, default /usr/bin/firefox-esr) with a fresh profile and opens a BiDi session. */
export async function openFirefox(): Promise<FirefoxTab> {
  const profile = mkdtempSync(join(tmpdir(), 'firefox-test-'));
  writeFileSync(
    join(profile, 'user.js'),
    Object.entries(PREFS)
      .map(([key, value]) => `user_pref(${JSON.stringify(key)}, ${JSON.stringify(value)});\n`)
      .join(''),
  );
  const child = spawn(
    process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr',
    ['--headless', '--no-remote', '--profile', profile, '--remote-debugging-port', '0'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
    rmSync(profile, { recursive: true, force: true });
  };
  try {
    let stderr = '';
    const listening = new Promise<string>((resolve, reject) => {
      child.stderr.on('data', (data: Buffer) => {
        stderr += data.toString();
        const url = /WebDriver BiDi listening on (ws:\/\/\S+)/.exec(stderr)?.[1];
        if (url) resolve(url);
      });
      child.once('exit', (code) => reject(new Error(`Firefox exited (${code}): ${stderr}`)));
    });
    const socket = new WebSocket(`${await within(listening, 30_000, 'Firefox listening for WebDriver BiDi')}/session`);
    await within(new Promise((resolve, reject) => ((socket.onopen = resolve), (socket.onerror = reject))), 10_000, 'the BiDi connection');
    const send = bidiSender(socket);
    await send('session.new', { capabilities: {} });
    const tree = await send('browsingContext.getTree', {});
    const context = (tree.contexts as Array<{ context: string }>)[0]!.context;
    return {
      async navigate(url, wait = 'complete') {
        await send('browsingContext.navigate', { context, url, wait });
      },
      async evaluate<T, A>(fn: (arg: A) => T | Promise<T>, arg?: A): Promise<T> {
        const expression = `(async () => JSON.stringify(await (${fn.toString()})(${JSON.stringify(arg) ?? ''})))()`;
        const reply = await send('script.evaluate', { expression, target: { context }, awaitPromise: true });
        if (reply.type === 'exception') throw new Error(`in the page: ${JSON.stringify(reply.exceptionDetails)}`);
        const value = (reply.result as { value?: string }).value;
        return (value === undefined ? undefined : JSON.parse(value)) as T;
      },
      async close() {
        socket.close();
        await close();
      },
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Commands over the socket, each answered by the reply with its id; an error reply rejects. */
function bidiSender(socket: WebSocket): (method: string, params: object) => Promise<Record<string, unknown>> {
  let lastId = 0;
  const waiting = new Map<number, { resolve: (result: Record<string, unknown>) => void; reject: (error: Error) => void }>();
  socket.onmessage = (event) => {
    const reply = JSON.parse(event.data as string) as BidiReply;
    const caller = reply.id === undefined ? undefined : waiting.get(reply.id);
    if (!caller) return; // events: none subscribed
    waiting.delete(reply.id!);
    if (reply.type === 'error') caller.reject(new Error(`${reply.error}: ${reply.message}`));
    else caller.resolve(reply.result ?? {});
  };
  return (method, params) =>
    within(
      new Promise((resolve, reject) => {
        const id = ++lastId;
        waiting.set(id, { resolve, reject });
        socket.send(JSON.stringify({ id, method, params }));
      }),
      30_000,
      `Firefox answering ${method}`,
    );
}
