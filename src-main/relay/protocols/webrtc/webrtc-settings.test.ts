import { describe, expect, it } from 'vitest';
import { parseWebrtcListen, webrtcSettingsSchema } from './webrtc-settings';

describe('webrtc: settings as go2rtc users write them', () => {
  it('listen: one port for UDP and TCP, /tcp or /udp for one of them, empty for a port per viewer', () => {
    expect(parseWebrtcListen(':8555')).toEqual({ host: '0.0.0.0', port: 8555, udp: true, tcp: true });
    expect(parseWebrtcListen('127.0.0.1:8555/tcp')).toEqual({ host: '127.0.0.1', port: 8555, udp: false, tcp: true });
    expect(parseWebrtcListen(':8555/udp')).toMatchObject({ udp: true, tcp: false });
    expect(parseWebrtcListen('')).toBeUndefined();
  });

  it('defaults: this machine only, go2rtc STUN servers for clients, no filters', () => {
    expect(webrtcSettingsSchema.parse({})).toMatchObject({
      listen: '127.0.0.1:8555',
      candidates: [],
      ice_servers: [{ urls: ['stun:stun.cloudflare.com:3478', 'stun:stun.l.google.com:19302'] }],
      filters: {},
    });
  });

  it('a wrong value is an error that says what to write', () => {
    const problem = (value: unknown) => webrtcSettingsSchema.safeParse(value).error?.issues[0]?.message;
    expect(problem({ listen: ':8555/sctp' })).toBe(
      'expected host:port with an optional /tcp or /udp, e.g. :8555 or :8555/tcp (got ":8555/sctp")',
    );
    expect(problem({ listen: ':99999' })).toBe('the port must be 0-65535 (got 99999)');
    expect(problem({ candidates: '1.2.3.4:8555' })).toBe('expected a list such as [203.0.113.7:8555, stun:8555]');
    expect(problem({ filters: { networks: ['udp5'] } })).toBe('expected networks among udp4, udp6, tcp4, tcp6');
  });
});
