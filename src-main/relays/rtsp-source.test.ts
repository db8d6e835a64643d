import { describe, expect, it } from 'vitest';
import type { RelayMonitor } from './relay-monitor';
import { remoteRtspSource } from './rtsp-source';

/** A monitor that knows the relays given, as the module's would after their first check. */
function knownRelays(
  relays: Record<string, { url: string; login?: { username: string; password: string }; rtspPort?: number }>,
): RelayMonitor {
  const names = Object.keys(relays);
  return {
    sync: () => undefined,
    list: () => names.map((name) => ({ name, url: relays[name]!.url, hasLogin: false, origin: 'config', state: 'reachable', sinceMs: 0 })),
    streams: () => [],
    get: (name) => {
      const relay = relays[name];
      if (!relay) return undefined;
      return {
        name,
        target: { url: relay.url, ...(relay.login ? { login: relay.login } : {}) },
        origin: 'config',
        state: 'reachable',
        health: {
          streams: 0,
          producers: 0,
          consumers: 0,
          bytesIn: 0,
          bytesOut: 0,
          ...(relay.rtspPort ? { rtspPort: relay.rtspPort } : {}),
        },
      };
    },
    checkNow: async () => undefined,
    close: () => undefined,
  };
}

const signal = new AbortController().signal;

describe('where relay://<relay>/<stream> is pulled from', () => {
  it("is rtsp:// on the relay's API host, at its RTSP port, with its login, the stream one path segment", async () => {
    const monitor = knownRelays({
      north: { url: 'http://10.0.0.5:1984', login: { username: 'ad min', password: 'p@ss/word' }, rtspPort: 8554 },
      v6: { url: 'https://[fd00::5]:1984/go2rtc', rtspPort: 9554 },
    });
    expect(await remoteRtspSource(monitor, 'north', 'yard', signal)).toBe('rtsp://ad%20min:p%40ss%2Fword@10.0.0.5:8554/yard');
    expect(await remoteRtspSource(monitor, 'v6', 'a/b?c#d', signal)).toBe('rtsp://[fd00::5]:9554/a%2Fb%3Fc%23d');
  });

  it('fails at once, saying why, for an unknown relay or one without an RTSP server', async () => {
    const monitor = knownRelays({ north: { url: 'http://10.0.0.5:1984' } });
    await expect(remoteRtspSource(monitor, 'east', 'yard', signal)).rejects.toMatchObject({
      message: "there is no relay named east (the config's relays: are north)",
      permanent: true,
    });
    await expect(remoteRtspSource(monitor, 'north', 'yard', signal)).rejects.toMatchObject({
      message: 'relay north has no RTSP server (its rtsp.listen is empty), so its streams cannot be pulled',
      permanent: true,
    });
    await expect(remoteRtspSource(knownRelays({}), 'east', 'yard', signal)).rejects.toThrow('the config lists no relays:');
  });
});
