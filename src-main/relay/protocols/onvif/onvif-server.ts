import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { ProtocolContext } from '../protocol-context';
import { readBody } from '../../api/read-body';
import * as answer from './onvif-responses';
import type { ProfileInfo } from './onvif-responses';
import { elementText, envelope, fault, requestAction } from './soap';
import { createWsSecurityCheck, PRE_AUTH } from './ws-security';

const MAX_REQUEST_BYTES = 64 * 1024;

function send(res: ServerResponse, status: number, xml: string): void {
  res.writeHead(status, { 'Content-Type': 'application/soap+xml; charset=utf-8', 'Content-Length': Buffer.byteLength(xml) });
  res.end(xml);
}

/** A profile per stream: its codec and picture size when a source is connected, else what most cameras have. */
function profileOf(protocols: ProtocolContext, name: string): ProfileInfo {
  const receivers = protocols.streams
    .get(name)
    ?.info()
    .producers.flatMap(
      (p) => (p.receivers ?? []) as { codec?: { codec_name?: string; codec_type?: string; width?: number; height?: number } }[],
    );
  const video = receivers?.find((r) => r.codec?.codec_type === 'video')?.codec;
  const encoding = video?.codec_name === 'hevc' || video?.codec_name === 'h265' ? 'H265' : video?.codec_name === 'mjpeg' ? 'JPEG' : 'H264';
  return { name, encoding, width: video?.width ?? 1920, height: video?.height ?? 1080 };
}

/**
 * The ONVIF server at /onvif/ (device and media services, Profile S), so NVRs and Home
 * Assistant's ONVIF integration see each stream as a camera profile: its stream URI is the
 * relay's RTSP server, its snapshot URI /api/frame.jpeg. Addresses use the scheme and host the
 * client used.
 */
export function registerOnvifServer(protocols: ProtocolContext): void {
  const { ctx, streams } = protocols;
  const { username, password } = ctx.settings.api;
  // With an API login, ONVIF clients log in their own way (WS-Security in the SOAP header).
  const refusal = username ? createWsSecurityCheck({ username, password: password ?? '' }) : undefined;
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (req.method !== 'POST') {
      res.writeHead(405, { Allow: 'POST', 'Content-Type': 'text/plain' }).end('ONVIF services take SOAP requests by POST');
      return;
    }
    const xml = await readBody(req, MAX_REQUEST_BYTES);
    const action = requestAction(xml);
    if (!action)
      return send(res, 400, fault('Sender', 'ter:WellFormed', 'the request is not a SOAP envelope with an operation in its Body'));
    const refused = refusal && !PRE_AUTH.has(action) ? refusal(req, xml) : undefined;
    if (refused) return send(res, 400, fault('Sender', 'ter:NotAuthorized', `Sender not authorized: ${refused}`));
    const host = req.headers.host ?? `127.0.0.1:${ctx.server.port}`;
    const base = `${(req.socket as TLSSocket).encrypted ? 'https' : 'http'}://${host}`;
    const names = streams.names();
    const profileToken = () => {
      const token =
        elementText(xml, 'ProfileToken') ?? elementText(xml, 'ConfigurationToken') ?? elementText(xml, 'VideoSourceToken') ?? '';
      return names.includes(token) ? token : undefined;
    };
    const noProfile = () =>
      send(res, 400, fault('Sender', 'ter:InvalidArgVal', `no profile with this token (the streams are ${names.join(', ') || 'none'})`));

    switch (action) {
      case 'GetSystemDateAndTime':
        return send(res, 200, envelope(answer.systemDateAndTime(new Date())));
      case 'GetCapabilities':
        return send(res, 200, envelope(answer.capabilities(base)));
      case 'GetServices':
        return send(res, 200, envelope(answer.services(base, /IncludeCapability>\s*true/i.test(xml))));
      case 'GetServiceCapabilities':
        return send(res, 200, envelope(answer.serviceCapabilities()));
      case 'GetDeviceInformation':
        // The serial tells one relay from another (Home Assistant keys its devices by it).
        return send(res, 200, envelope(answer.deviceInformation('Media relay', ctx.version, `relay-${ctx.server.port}-${host}`)));
      case 'GetScopes':
        return send(res, 200, envelope(answer.scopes('Relay Console')));
      case 'GetProfiles':
        return send(res, 200, envelope(answer.profiles(names.map((n) => profileOf(protocols, n)))));
      case 'GetProfile': {
        const token = profileToken();
        return token ? send(res, 200, envelope(answer.oneProfile(profileOf(protocols, token)))) : noProfile();
      }
      case 'GetVideoSources':
        return send(res, 200, envelope(answer.videoSources(names.map((n) => profileOf(protocols, n)))));
      case 'GetVideoSourceConfigurations':
        return send(res, 200, envelope(answer.videoSourceConfigurations(names.map((n) => profileOf(protocols, n)))));
      case 'GetVideoEncoderConfigurations':
        return send(res, 200, envelope(answer.videoEncoderConfigurations(names.map((n) => profileOf(protocols, n)))));
      case 'GetStreamUri': {
        const token = profileToken();
        if (!token) return noProfile();
        const rtspPort = protocols.rtsp.port;
        if (!rtspPort) return send(res, 500, fault('Receiver', 'ter:ActionNotSupported', 'the RTSP server is off (rtsp.listen is empty)'));
        const hostname = new URL(`http://${host}`).hostname;
        return send(
          res,
          200,
          envelope(answer.mediaUri('GetStreamUriResponse', `rtsp://${hostname}:${rtspPort}/${encodeURIComponent(token)}`)),
        );
      }
      case 'GetSnapshotUri': {
        const token = profileToken();
        return token
          ? send(res, 200, envelope(answer.mediaUri('GetSnapshotUriResponse', `${base}/api/frame.jpeg?src=${encodeURIComponent(token)}`)))
          : noProfile();
      }
      default: {
        const empty = answer.EMPTY_ANSWERS[action];
        if (empty) return send(res, 200, envelope(empty));
        protocols.logger.debug('onvif: operation not supported', { action });
        return send(res, 400, fault('Sender', 'ter:ActionNotSupported', `${action} is not supported by this ONVIF server`));
      }
    }
  };
  ctx.http.add([{ method: '*', path: '/onvif/*', handler: ({ req, res }) => handle(req, res), ownAuth: true }]);
}
