import type { Logger } from '@main/platform/logger';
import type { OutputDeps } from '../../media/frames/attach-output';

export interface Mp4Deps extends OutputDeps {
  logger: Logger;
  /** How long a viewer waits for the first keyframe before a 503, in ms (default 20 s). */
  keyframeTimeoutMs?: number;
  /** Bytes a client may leave unread before frames are dropped up to the next keyframe (default 2 MiB). */
  maxBufferedBytes?: number;
}

export const KEYFRAME_TIMEOUT_MS = 20_000;
export const MAX_BUFFERED_BYTES = 2 * 1024 * 1024;
