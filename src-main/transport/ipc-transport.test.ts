import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineService, method } from '../../src-shared/contract/define-service';
import { IPC_CALL_CHANNEL, IPC_EVENT_CHANNEL, IPC_SUBSCRIBE_CHANNEL, IPC_UNSUBSCRIBE_CHANNEL } from '../../src-shared/contract/wire';
import { createMemoryLogger } from '../platform/logger';
import { bindIpcTransport, type IpcEventLike, type IpcMainLike, type WebContentsLike } from './ipc-transport';
import { createServiceHost } from './service-host';

/** Electron's ipcMain semantics (handle/invoke, on/send) over an EventEmitter. */
function ipcMainStandIn() {
  const handlers = new Map<string, (event: IpcEventLike, ...args: unknown[]) => unknown>();
  const emitter = new EventEmitter();
  const ipcMain: IpcMainLike = {
    handle: (channel, fn) => void handlers.set(channel, fn),
    removeHandler: (channel) => void handlers.delete(channel),
    on: (channel, fn) => void emitter.on(channel, fn),
    removeListener: (channel, fn) => void emitter.removeListener(channel, fn),
  };
  return {
    ipcMain,
    invoke: (event: IpcEventLike, channel: string, arg: unknown) => handlers.get(channel)!(event, arg),
    send: (event: IpcEventLike, channel: string, arg: unknown) => emitter.emit(channel, event, arg),
    hasHandler: (channel: string) => handlers.has(channel),
  };
}

function webContents(id: number) {
  const sent: Array<[string, unknown]> = [];
  const destroyed = new EventEmitter();
  const contents: WebContentsLike & { destroy(): void } = {
    id,
    send: (channel, payload) => void sent.push([channel, payload]),
    isDestroyed: () => false,
    once: (_event, fn) => void destroyed.once('destroyed', fn),
    destroy: () => void destroyed.emit('destroyed'),
  };
  return { contents, sent };
}

const service = defineService({
  name: 'clock',
  methods: { now: method(z.object({ plus: z.number() }), z.number()) },
  events: { onTick: z.number() },
});

describe('IPC transport', () => {
  const setup = () => {
    const host = createServiceHost(createMemoryLogger());
    const emit = host.bind(service, { now: async ({ plus }) => 1000 + plus });
    const ipc = ipcMainStandIn();
    const unbind = bindIpcTransport({
      ipcMain: ipc.ipcMain,
      host,
      isTrustedUrl: (u) => u.startsWith('app://console/'),
      logger: createMemoryLogger(),
    });
    return { emit, ipc, unbind };
  };

  it('answers calls from the console frame and refuses other frames', async () => {
    const { ipc } = setup();
    const { contents } = webContents(1);
    const trusted = { sender: contents, senderFrame: { url: 'app://console/index.html' } };
    expect(await ipc.invoke(trusted, IPC_CALL_CHANNEL, { service: 'clock', method: 'now', input: { plus: 5 } })).toEqual({
      ok: true,
      value: 1005,
    });
    expect(await ipc.invoke(trusted, IPC_CALL_CHANNEL, { service: 'clock', method: 'now', input: { plus: 'x' } })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    });
    expect(await ipc.invoke(trusted, IPC_CALL_CHANNEL, 'garbage')).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    const foreign = { sender: contents, senderFrame: { url: 'https://evil.example/' } };
    expect(await ipc.invoke(foreign, IPC_CALL_CHANNEL, { service: 'clock', method: 'now', input: { plus: 1 } })).toMatchObject({
      ok: false,
      error: { code: 'forbidden' },
    });
  });

  it('pushes events to subscribed windows and stops when they unsubscribe or close', () => {
    const { emit, ipc, unbind } = setup();
    const a = webContents(1);
    const b = webContents(2);
    const frame = { senderFrame: { url: 'app://console/index.html' } };
    ipc.send({ sender: a.contents, ...frame }, IPC_SUBSCRIBE_CHANNEL, { service: 'clock', event: 'onTick' });
    ipc.send({ sender: b.contents, ...frame }, IPC_SUBSCRIBE_CHANNEL, { service: 'clock', event: 'onTick' });
    emit('onTick', 1);
    ipc.send({ sender: a.contents, ...frame }, IPC_UNSUBSCRIBE_CHANNEL, { service: 'clock', event: 'onTick' });
    emit('onTick', 2);
    b.contents.destroy();
    emit('onTick', 3);
    expect(a.sent).toEqual([[IPC_EVENT_CHANNEL, { service: 'clock', event: 'onTick', payload: 1 }]]);
    expect(b.sent.map(([, p]) => (p as { payload: number }).payload)).toEqual([1, 2]);
    unbind();
    expect(ipc.hasHandler(IPC_CALL_CHANNEL)).toBe(false);
  });
});
