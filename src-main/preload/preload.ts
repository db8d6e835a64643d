// The only bridge between the sandboxed renderer and main: a typed call/subscribe pair, never
// raw ipcRenderer. Bundled to dist/main/preload.cjs (sandboxed preloads must be CommonJS).
import { contextBridge, ipcRenderer, webUtils } from 'electron';
import type { ConsoleBridge } from '../../src-shared/contract/transport';
import type { Result } from '../../src-shared/contract/result';
import { IPC_CALL_CHANNEL, IPC_EVENT_CHANNEL, IPC_SUBSCRIBE_CHANNEL, IPC_UNSUBSCRIBE_CHANNEL } from '../../src-shared/contract/wire';

const listeners = new Map<string, Set<(payload: unknown) => void>>();

ipcRenderer.on(IPC_EVENT_CHANNEL, (_event, frame: { service: string; event: string; payload: unknown }) => {
  for (const listener of listeners.get(`${frame.service}/${frame.event}`) ?? []) listener(frame.payload);
});

const bridge: ConsoleBridge = {
  runtime: 'electron',
  // Only a File the user chose has a path: main reads uploads from disk instead of a copy.
  pathForFile: (file) => webUtils.getPathForFile(file as File),
  call: (service, method, input) => ipcRenderer.invoke(IPC_CALL_CHANNEL, { service, method, input }) as Promise<Result<unknown>>,
  subscribe(service, event, listener) {
    const key = `${service}/${event}`;
    let set = listeners.get(key);
    if (!set) {
      listeners.set(key, (set = new Set()));
      ipcRenderer.send(IPC_SUBSCRIBE_CHANNEL, { service, event });
    }
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) {
        listeners.delete(key);
        ipcRenderer.send(IPC_UNSUBSCRIBE_CHANNEL, { service, event });
      }
    };
  },
};

contextBridge.exposeInMainWorld('relayConsole', bridge);
