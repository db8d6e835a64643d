import { z } from 'zod';
import type { EngineModule } from '../engine/engine-context';
import { listenSetting } from '../platform/config/app-settings';
import { ConfigFileError } from '../platform/config/errors';
import { appRoutes } from './api/app-routes';
import { configRoutes } from './api/config-routes';
import { refuseCodeRunningSources } from './config-write-guard';
import { streamsRoutes } from './api/streams-routes';
import { createSchemeRegistry } from './core/scheme-registry';
import { createStreamRegistry, type StreamRegistry } from './core/stream-registry';
import { createTaskRegistry } from './core/task-registry';
import { registerProtocols } from './protocols';
import { readStreamsSection } from './streams-config';
import { bindRelayService } from './relay-service';
import { createStreamSender } from './stream-sender';
import { webrtcSettingsSchema } from './protocols/webrtc/webrtc-settings';
import { rtspSettingsSchema } from './rtsp-settings';
import { relayStreams } from './relay-capability';

/**
 * The relay's sections of the config, read from here and nowhere else (the engine's
 * unknown-key warnings use the same schema).
 */
export const relayConfigSchema = z.object({
  rtsp: rtspSettingsSchema.prefault({}),
  webrtc: webrtcSettingsSchema.prefault({}),
  streams: z
    .record(z.string(), z.unknown(), {
      error: 'expected stream names and their sources, e.g. streams: { cam: "rtsp://192.168.1.20/stream1" }',
    })
    .nullable()
    .optional()
    .describe('stream name: source URL or a list of them (rtsp://, http://, ffmpeg:, webrtc:, ...)'),
  preload: z
    .record(z.string(), z.string().nullable(), {
      error: 'expected stream names and the tracks to keep running, e.g. preload: { cam: "video&audio" }',
    })
    .nullable()
    .optional()
    .describe('streams kept running without a viewer: stream name → tracks (video&audio when empty)'),
  hass: z
    .object({
      url: z
        .url({ protocol: /^https?$/, error: 'expected the Home Assistant address, e.g. http://homeassistant.local:8123' })
        .optional()
        .describe('Home Assistant address, for GET /api/hass'),
      token: z.string().min(1).optional().describe('long-lived access token; ${ENV} keeps it out of the file'),
    })
    .loose()
    .optional()
    .describe('a Home Assistant whose cameras /api/hass lists'),
  discovery: z
    .object({
      onvif: z.string().optional().describe('where /api/onvif sends its WS-Discovery probe (default 239.255.255.250:3702)'),
      dvrip: z.string().optional().describe('where /api/dvrip sends its DVRIP search (default 255.255.255.255:34569)'),
      mdns: z.string().optional().describe('where /api/homekit sends its mDNS query (default 224.0.0.251:5353)'),
      timeout: z.union([z.string(), z.number()]).optional().describe('how long a probe waits for answers, e.g. 3s'),
    })
    .optional()
    .describe('network discovery probes: where they go and how long they listen'),
  rtmp: z
    .object({
      listen: listenSetting('127.0.0.1:1935', { allowEmpty: true })
        .optional()
        .describe('host:port of the RTMP server for publishers such as OBS (e.g. :1935); empty or absent: off'),
      allow_publish_over_sources: z
        .boolean()
        .optional()
        .describe(
          'let a publisher replace a stream that has sources in the config (default false: only streams without sources take publishers)',
        ),
    })
    .loose()
    .optional()
    .describe('RTMP server: publishers push rtmp://host:1935/<stream>'),
  webtorrent: z
    .object({
      trackers: z
        .array(z.string().regex(/^wss?:\/\//, 'a tracker is a ws:// or wss:// address'))
        .optional()
        .describe('WebTorrent trackers; the first carries shares and webtorrent: sources (default wss://tracker.openwebtorrent.com)'),
      shares: z
        .record(
          z.string(),
          z
            .object({ pwd: z.string().describe('password a peer needs (4+ characters)'), src: z.string().describe('the stream shared') })
            .nullable(),
        )
        .optional()
        .describe('share name (8+ characters, unique on the tracker): its pwd and stream'),
    })
    .optional()
    .describe('P2P shares: streams reached by share name and pwd through a WebTorrent tracker, over WebRTC'),
});

/** Applies the config's `streams:` to the registry: new ones added, changed ones updated, gone ones closed. */
function syncStreams(streams: StreamRegistry, section: unknown, log: (name: string, error: string) => void): void {
  const wanted = readStreamsSection(section);
  for (const name of streams.names()) if (!wanted.has(name)) streams.delete(name);
  for (const [name, sources] of wanted) {
    const usable = sources.filter((source) => {
      try {
        streams.checkSource(source, 'config');
        return true;
      } catch (error) {
        log(name, (error as Error).message);
        return false;
      }
    });
    streams.set(name, usable);
  }
}

/** The media relay: streams from the config, the seed's HTTP API, and the protocol servers. */
export const relayModule: EngineModule = {
  name: 'relay',
  async init(ctx) {
    const logger = ctx.logger.child('relay');
    const parsed = relayConfigSchema.safeParse(ctx.config.effective());
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new ConfigFileError(`config ${ctx.config.path}: ${issue?.path.join('.')}: ${issue?.message}`);
    }
    const { rtsp, webrtc } = parsed.data;

    const tasks = createTaskRegistry();
    const schemes = createSchemeRegistry();
    const streams = createStreamRegistry({ schemes, logger, tasks });
    ctx.onClose(() => streams.close());
    ctx.capabilities.provide(relayStreams, { streams, tasks });

    await registerProtocols({ ctx, schemes, streams, tasks, logger, rtsp, webrtc });

    const logRejected = (name: string, error: string) => logger.warn('stream source ignored', { stream: name, error });
    syncStreams(streams, ctx.config.section('streams'), logRejected);
    const unsubscribe = ctx.config.onChange((config) => syncStreams(streams, config.section('streams'), logRejected));
    ctx.onClose(unsubscribe);

    const configWriteGuard = refuseCodeRunningSources(schemes, ctx.config.path);
    ctx.http.add(appRoutes(ctx, { tasks, rtsp, schemes: () => schemes.schemes() }));
    ctx.http.add(configRoutes(ctx, configWriteGuard));
    ctx.http.add(streamsRoutes(ctx, { streams, send: createStreamSender({ streams, schemes, tasks }) }));
    bindRelayService(ctx, { streams, guard: configWriteGuard, rtsp, schemes });
  },
};
