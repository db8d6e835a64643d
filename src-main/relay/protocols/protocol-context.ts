import type { EngineContext } from '../../engine/engine-context';
import type { Logger } from '../../platform/logger';
import type { SchemeRegistry } from '../core/scheme-registry';
import type { StreamRegistry } from '../core/stream-registry';
import type { TaskRegistry } from '../core/task-registry';
import type { RtspSettings } from '../rtsp-settings';
import type { WebrtcSettings } from './webrtc/webrtc-settings';

/**
 * What a protocol gets when it registers: the engine, the registries it adds its schemes,
 * streams and tasks to, and the settings it reads. Its own file, so that a protocol importing
 * it does not import every other protocol (protocols.ts imports them all).
 */
export interface ProtocolContext {
  ctx: EngineContext;
  schemes: SchemeRegistry;
  streams: StreamRegistry;
  tasks: TaskRegistry;
  logger: Logger;
  rtsp: RtspSettings;
  webrtc: WebrtcSettings;
}
