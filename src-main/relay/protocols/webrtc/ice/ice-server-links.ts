import type { IceServer } from '../webrtc-settings';

const quoted = (value: string) => `"${value.replace(/["\\]/g, '\\$&')}"`;

/**
 * `webrtc.ice_servers` as the `Link` header of a WHIP/WHEP answer (RFC 9725 §4.6): one
 * `rel="ice-server"` entry per URL, TURN credentials as its attributes. Undefined when none.
 */
export function iceServerLinks(servers: IceServer[]): string | undefined {
  const links = servers.flatMap((server) =>
    (Array.isArray(server.urls) ? server.urls : [server.urls]).map((url) => {
      const credentials =
        server.username !== undefined && server.credential !== undefined
          ? `; username=${quoted(server.username)}; credential=${quoted(server.credential)}; credential-type="password"`
          : '';
      return `<${url}>; rel="ice-server"${credentials}`;
    }),
  );
  return links.length > 0 ? links.join(', ') : undefined;
}
