import { createRequire } from 'node:module';
import type * as Werift from 'werift';

const requireFromHere = createRequire(import.meta.url);

/**
 * werift, loaded with the first WebRTC session or source rather than at start: the library and
 * its dependencies take about 20 MB, which a relay serving only RTSP, HLS or MP4 should not hold.
 * (Node caches it after the first call; its types are imported as usual.)
 */
export const werift = (): typeof Werift => requireFromHere('werift') as typeof Werift;
