import { z } from 'zod';
import { listenProblem, parseListen } from '@main/platform/config/app-settings';

/** go2rtc's defaults, so a config without `ice_servers` hands clients the same STUN servers. */
const DEFAULT_ICE_SERVERS = [{ urls: ['stun:stun.cloudflare.com:3478', 'stun:stun.l.google.com:19302'] }];

const NETWORKS = ['udp4', 'udp6', 'tcp4', 'tcp6'] as const;

const listen = z.string().superRefine((value, ctx) => {
  if (value === '') return;
  const [address = '', network, ...rest] = value.split('/');
  if (rest.length > 0 || (network !== undefined && network !== 'tcp' && network !== 'udp')) {
    ctx.addIssue({ code: 'custom', message: `expected host:port with an optional /tcp or /udp, e.g. :8555 or :8555/tcp (got "${value}")` });
    return;
  }
  const problem = listenProblem(address, '127.0.0.1:8555');
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

const iceServer = z
  .object({
    urls: z.union([z.string(), z.array(z.string())], { error: 'expected urls: [stun:host:port] or [turn:host:port]' }),
    username: z.string().optional(),
    credential: z.string().optional(),
  })
  .loose();

/**
 * The `webrtc:` section as go2rtc users write it. `listen` is where every viewer's media meets
 * the relay, UDP and TCP on one port (`/tcp` or `/udp` keeps one of them, an empty value leaves
 * each viewer a port of its own); like every server of the relay it is this machine only until
 * configured otherwise (`:8555` for the network).
 */
export const webrtcSettingsSchema = z
  .object({
    listen: listen.default('127.0.0.1:8555').describe("host:port where viewers' media meets the relay, UDP and TCP; :8555 for the network"),
    /** Extra host candidates: `ip:port`, `name:port`, or `stun:port` for the public address a STUN server sees. */
    candidates: z
      .array(z.string(), { error: 'expected a list such as [203.0.113.7:8555, stun:8555]' })
      .default([])
      .describe('extra addresses offered to viewers: ip:port, name:port, or stun:8555 for the public address'),
    ice_servers: z
      .array(iceServer, { error: 'expected a list such as [{urls: [stun:stun.l.google.com:19302]}]' })
      .default(DEFAULT_ICE_SERVERS)
      .describe('STUN/TURN servers handed to browsers'),
    filters: z
      .object({
        /** Host candidates (by IP) to keep from discovery; [] keeps none. */
        candidates: z.array(z.string()).optional(),
        /** Offer 127.0.0.1 as well (always when listening on loopback). */
        loopback: z.boolean().optional(),
        networks: z.array(z.enum(NETWORKS, { error: `expected networks among ${NETWORKS.join(', ')}` })).optional(),
        interfaces: z.array(z.string()).optional(),
        ips: z.array(z.string()).optional(),
        /** The range for per-viewer UDP ports when `listen` has no UDP port. */
        udp_ports: z.tuple([z.number().int().min(1).max(65535), z.number().int().min(1).max(65535)]).optional(),
      })
      .loose()
      .default({})
      .describe('which candidates to offer: networks, interfaces, ips, candidate types'),
  })
  .loose()
  .describe("WebRTC viewers and publishers (WHEP, WHIP, go2rtc's WebSocket API)");

export type WebrtcSettings = z.infer<typeof webrtcSettingsSchema>;
export type IceServer = z.infer<typeof iceServer>;

/** Where the shared ICE port listens, per transport; undefined where viewers get ports of their own. */
export interface WebrtcListen {
  host: string;
  port: number;
  udp: boolean;
  tcp: boolean;
}

export function parseWebrtcListen(value: string): WebrtcListen | undefined {
  if (value === '') return undefined;
  const [address = '', network] = value.split('/');
  const { host, port } = parseListen(address);
  return { host, port, udp: network !== 'tcp', tcp: network !== 'udp' };
}
