import { describe, expect, it } from 'vitest';
import { failureOwner } from './failure-owner';
import type { PlayerFailure } from './player-types';

const refused = 'stream cam: no source is reachable (rtsp://127.0.0.1:9/cam: rtsp: connect ECONNREFUSED 127.0.0.1:9)';

describe('failureOwner', () => {
  it.each<[string, PlayerFailure, string | undefined]>([
    ['WHEP 503: camera port closed', { reason: 'endpoint', status: 503, detail: refused }, 'connection refused'],
    ['HLS/MJPEG 503 the same', { reason: 'endpoint', status: 503, detail: refused }, 'connection refused'],
    ['MSE WebSocket error message', { reason: 'offline', detail: refused }, 'connection refused'],
    [
      'camera refuses the login',
      { reason: 'endpoint', status: 503, detail: 'stream cam: no source is reachable (rtsp://***@10.0.0.5/s: rtsp: 401 Unauthorized)' },
      'login refused (401 Unauthorized)',
    ],
    [
      'camera has no such path',
      { reason: 'endpoint', status: 503, detail: 'stream cam: no source is reachable (rtsp://10.0.0.5/x: rtsp: 404 Not Found)' },
      'the camera has no such path (404)',
    ],
    ['unknown stream', { reason: 'endpoint', status: 404, detail: 'stream not found: nosuch' }, 'stream not found'],
    [
      'publish-only stream, nobody publishing',
      { reason: 'endpoint', status: 503, detail: 'stream pub has no source' },
      'nothing is publishing to this stream',
    ],
    [
      'host name does not resolve',
      { reason: 'endpoint', status: 503, detail: 'stream cam: no source is reachable (rtsp://cam.lan/: getaddrinfo ENOTFOUND cam.lan)' },
      'host name not found',
    ],
    [
      'camera does not answer',
      {
        reason: 'endpoint',
        status: 503,
        detail: 'stream cam: no source is reachable (rtsp://10.0.0.9/: rtsp: connect ETIMEDOUT 10.0.0.9:554)',
      },
      'the camera did not answer in time',
    ],
    [
      'a source reachable message without a known code',
      { reason: 'endpoint', status: 503, detail: 'stream cam: no source is reachable (no media)' },
      'the source is not reachable',
    ],
    // The mode's own failures: the next mode may play.
    ['WebRTC blocked by a proxy: a bare 503', { reason: 'endpoint', status: 503, detail: 'blocked by the test' }, undefined],
    ['endpoint missing on an older relay', { reason: 'endpoint', status: 404, detail: '404 page not found' }, undefined],
    [
      'codecs the output cannot take',
      {
        reason: 'endpoint',
        status: 400,
        detail: 'codecs not matched: the source has video H265; this output accepts video H264 (the offer has H264)',
      },
      undefined,
    ],
    [
      'an SDP the relay cannot use',
      { reason: 'endpoint', status: 400, detail: 'the offer is not a usable SDP: SDP has no audio or video media the relay understands' },
      undefined,
    ],
    ['the relay itself unreachable', { reason: 'connection', detail: 'Failed to fetch' }, undefined],
    ['ICE failed', { reason: 'connection', detail: 'WebRTC connection failed' }, undefined],
    ['no picture in time', { reason: 'timeout', detail: 'no picture within 12 s' }, undefined],
    ['decoder refused', { reason: 'decode', detail: 'MSE cannot play video/mp4; codecs="hvc1"' }, undefined],
    ['not supported by the browser', { reason: 'unsupported', detail: 'this browser has no WebRTC' }, undefined],
    [
      'MSE told its codecs are not sent',
      { reason: 'offline', detail: 'none of the codecs the browser plays (avc1) is one the relay sends' },
      undefined,
    ],
    ['a refusal text on a success-like status is not trusted', { reason: 'endpoint', status: 418, detail: refused }, undefined],
  ])('%s', (_name, failure, cause) => {
    const owner = failureOwner(failure);
    expect(owner).toEqual(cause === undefined ? { owner: 'mode' } : { owner: 'source', cause });
  });
});

describe('failureOwner with go2rtc itself as the relay', () => {
  it.each<[string, PlayerFailure, string | undefined]>([
    [
      'dial refused',
      { reason: 'endpoint', status: 500, detail: 'streams: dial tcp 127.0.0.1:9: connect: connection refused' },
      'connection refused',
    ],
    [
      'login refused',
      { reason: 'offline', detail: 'streams: wrong response on DESCRIBE: 401 Unauthorized' },
      'login refused (401 Unauthorized)',
    ],
    ['codecs not matched', { reason: 'offline', detail: 'streams: codecs not matched: video:H265 => video:H264' }, undefined],
  ])('%s', (_name, failure, cause) => {
    expect(failureOwner(failure)).toEqual(cause === undefined ? { owner: 'mode' } : { owner: 'source', cause });
  });
});
