import { z } from 'zod';
import { IPC_CALL_CHANNEL, IPC_EVENT_CHANNEL, IPC_SUBSCRIBE_CHANNEL, IPC_UNSUBSCRIBE_CHANNEL } from '../../src-shared/contract/wire';
import { err, type Result } from '../../src-shared/contract/result';
import type { Logger } from '../platform/logger';
import type { ServiceGateway } from './service-host';

/** The parts of Electron's ipcMain this transport uses, so it runs (and is tested) under Node too. */
export interface IpcMainLike {
  handle(channel: string, listener: (event: IpcEventLike, ...args: unknown[]) => unknown): void;
  removeHandler(channel: string): void;
  on(channel: string, listener: (event: IpcEventLike, ...args: unknown[]) => void): void;
  removeListener(channel: string, listener: (event: IpcEventLike, ...args: unknown[]) => void): void;
}

export interface WebContentsLike {
  readonly id: number;
  send(channel: string, payload: unknown): void;
  isDestroyed(): boolean;
  once(event: 'destroyed', listener: () => void): void;
}

export interface IpcEventLike {
  sender: WebContentsLike;
  senderFrame?: { url: string } | null;
}

const callSchema = z.object({ service: z.string().min(1).max(64), method: z.string().min(1).max(64), input: z.unknown().optional() });
const subscriptionSchema = z.object({ service: z.string().min(1).max(64), event: z.string().regex(/^on[A-Z]\w*$/) });

/**
 * The contract over Electron IPC: the preload's invoke/send reach the same ServiceHost as the
 * WebSocket. Only frames loaded from the console's own origin may call.
 */
export function bindIpcTransport(options: {
  ipcMain: IpcMainLike;
  host: ServiceGateway;
  isTrustedUrl: (url: string) => boolean;
  logger: Logger;
}): () => void {
  const { ipcMain, host, isTrustedUrl, logger } = options;
  /** webContents id → (service/event → unsubscribe) */
  const subscriptions = new Map<number, Map<string, () => void>>();

  const trusted = (event: IpcEventLike): boolean => {
    const ok = event.senderFrame ? isTrustedUrl(event.senderFrame.url) : false;
    if (!ok) logger.warn('IPC from an untrusted frame refused', { url: event.senderFrame?.url ?? 'unknown' });
    return ok;
  };

  ipcMain.handle(IPC_CALL_CHANNEL, async (event, frame): Promise<Result<unknown>> => {
    if (!trusted(event)) return err('forbidden', 'this frame may not call the console');
    const parsed = callSchema.safeParse(frame);
    if (!parsed.success) return err('invalid_input', 'malformed call');
    return host.call(parsed.data.service, parsed.data.method, parsed.data.input);
  });

  const onSubscribe = (event: IpcEventLike, frame: unknown): void => {
    const parsed = subscriptionSchema.safeParse(frame);
    if (!parsed.success || !trusted(event)) return;
    const { service, event: name } = parsed.data;
    const sender = event.sender;
    let forSender = subscriptions.get(sender.id);
    if (!forSender) {
      subscriptions.set(sender.id, (forSender = new Map()));
      sender.once('destroyed', () => {
        for (const unsubscribe of subscriptions.get(sender.id)?.values() ?? []) unsubscribe();
        subscriptions.delete(sender.id);
      });
    }
    const key = `${service}/${name}`;
    if (forSender.has(key)) return;
    const result = host.subscribe(service, name, (payload) => {
      if (!sender.isDestroyed()) sender.send(IPC_EVENT_CHANNEL, { service, event: name, payload });
    });
    if (result.ok) forSender.set(key, result.value);
  };

  const onUnsubscribe = (event: IpcEventLike, frame: unknown): void => {
    const parsed = subscriptionSchema.safeParse(frame);
    if (!parsed.success) return;
    const forSender = subscriptions.get(event.sender.id);
    const key = `${parsed.data.service}/${parsed.data.event}`;
    forSender?.get(key)?.();
    forSender?.delete(key);
  };

  ipcMain.on(IPC_SUBSCRIBE_CHANNEL, onSubscribe as (event: IpcEventLike, ...args: unknown[]) => void);
  ipcMain.on(IPC_UNSUBSCRIBE_CHANNEL, onUnsubscribe as (event: IpcEventLike, ...args: unknown[]) => void);

  return () => {
    ipcMain.removeHandler(IPC_CALL_CHANNEL);
    ipcMain.removeListener(IPC_SUBSCRIBE_CHANNEL, onSubscribe as (event: IpcEventLike, ...args: unknown[]) => void);
    ipcMain.removeListener(IPC_UNSUBSCRIBE_CHANNEL, onUnsubscribe as (event: IpcEventLike, ...args: unknown[]) => void);
    for (const forSender of subscriptions.values()) for (const unsubscribe of forSender.values()) unsubscribe();
    subscriptions.clear();
  };
}
