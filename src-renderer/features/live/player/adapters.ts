import { startHls } from './hls-adapter';
import { startMjpeg } from './mjpeg-adapter';
import { startMse } from './mse-adapter';
import type { AdapterEvents, AdapterTarget, PlayerAdapter, PlayerMode } from './player-types';
import { startWebrtc } from './webrtc-adapter';

/** One start function per mode; a new mode is one more line here. */
export const ADAPTERS: Record<PlayerMode, (target: AdapterTarget, events: AdapterEvents) => PlayerAdapter> = {
  webrtc: startWebrtc,
  mse: startMse,
  hls: startHls,
  mjpeg: startMjpeg,
};
