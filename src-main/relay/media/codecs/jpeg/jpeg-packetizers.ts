import type { MediaFrame } from '@main/relay/core/media';
import { packetizeJpeg } from './rtp-jpeg';

/** The JPEG packetizer in the shape frame producers take (uploads and HTTP sources of MJPEG). */
export const jpegPacketizers = { JPEG: (frame: MediaFrame) => packetizeJpeg(frame.data) };
