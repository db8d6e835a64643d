import { z } from 'zod';
import { listenSetting } from '../platform/config/app-settings';

/** The config's `rtsp:` section: the RTSP server's address and who may view and publish. */
export const rtspSettingsSchema = z
  .object({
    listen: listenSetting('127.0.0.1:8554', { allowEmpty: true })
      .default('127.0.0.1:8554')
      .describe('host:port of the RTSP server (rtsp://host:8554/<stream>); empty turns it off'),
    username: z.string().optional().describe('RTSP viewers and publishers must log in with this user'),
    password: z.string().optional().describe('password for rtsp.username; ${ENV} keeps it out of the file'),
    local_auth: z.boolean().default(false).describe('ask for the login from loopback clients too'),
    default_query: z.string().default('video&audio').describe('tracks an RTSP viewer gets when its URL names none, e.g. video&audio'),
  })
  .loose()
  .describe('RTSP server: viewers and publishers on rtsp://host:8554/<stream>');

/** The RTSP settings; `port` is filled in once the server listens (0 in config picks a free one). */
export type RtspSettings = z.infer<typeof rtspSettingsSchema> & { port?: number };
