import { preferencesService, type Popout, type WindowBounds } from '../../src-shared/contract/preferences';
import type { EngineModule } from '../engine/engine-context';
import { openPreferencesStore } from './preferences-store';

/** What the desktop runtime offers for pop-outs; the headless console opens browser windows itself. */
export interface CameraWindowHost {
  /** Opens (or focuses) a window with one camera; reports where the user moves it and when they close it. */
  openCamera(stream: string, bounds: WindowBounds | undefined, events: { onBounds(bounds: WindowBounds): void; onClosed(): void }): void;
  /** Called with the pop-outs open when the app last ran; the host reopens them once per app run. */
  restore?(popouts: readonly Popout[], open: (popout: Popout) => void): void;
}

export interface PreferencesModuleOptions {
  windows?: CameraWindowHost;
}

const withoutStream = (popouts: readonly Popout[], stream: string) => popouts.filter((p) => p.stream !== stream);

/** The `preferences` contract service: the colour theme, the live grid's layout and order, and the open pop-outs. */
export function createPreferencesModule(options: PreferencesModuleOptions = {}): EngineModule {
  return {
    name: 'preferences',
    async init(ctx) {
      const store = await openPreferencesStore(ctx.settings.dataDir, ctx.logger.child('preferences'));
      const { windows } = options;

      const openCamera = (stream: string, bounds?: WindowBounds) => {
        windows!.openCamera(stream, bounds, {
          onBounds: (next) =>
            void store.update((p) => ({ ...p, popouts: p.popouts.map((o) => (o.stream === stream ? { stream, bounds: next } : o)) })),
          onClosed: () =>
            void store.update((p) => ({ ...p, popouts: withoutStream(p.popouts, stream) })).then((p) => emit('onPreferences', p)),
        });
      };

      const emit = ctx.services.bind(preferencesService, {
        get: async () => store.get(),
        setLiveView: async (grid) => {
          const next = await store.update((p) => ({ ...p, live: { ...p.live, ...grid } }));
          emit('onPreferences', next);
          return next;
        },
        // Merged here rather than sent whole by the renderer: a pop-out and the grid may change
        // modes of different streams at the same time.
        setTileMode: async ({ stream, mode }) => {
          const next = await store.update((p) => {
            const { [stream]: _previous, ...others } = p.live.modes;
            return { ...p, live: { ...p.live, modes: mode ? { ...others, [stream]: mode } : others } };
          });
          emit('onPreferences', next);
          return next;
        },
        setDirectoryView: async (directory) => {
          const next = await store.update((p) => ({ ...p, directory }));
          emit('onPreferences', next);
          return next;
        },
        setAppearance: async (appearance) => {
          const next = await store.update((p) => ({ ...p, appearance }));
          emit('onPreferences', next);
          return next;
        },
        setLiveToBucket: async (liveToBucket) => {
          const next = await store.update((p) => ({ ...p, liveToBucket }));
          emit('onPreferences', next);
          return next;
        },
        openPopout: async ({ stream }) => {
          if (!windows) return { opened: false };
          const known = store.get().popouts.find((p) => p.stream === stream);
          const next = await store.update((p) => ({ ...p, popouts: [...withoutStream(p.popouts, stream), known ?? { stream }] }));
          openCamera(stream, known?.bounds);
          emit('onPreferences', next);
          return { opened: true };
        },
      });

      windows?.restore?.(store.get().popouts, (popout) => openCamera(popout.stream, popout.bounds));
    },
  };
}
