import { createHash, randomBytes } from 'node:crypto';
import { assertLearnedUrl } from '../../core/learned-url';
import { elementText, xmlEscape } from './soap';
import { attributeOf, childText, xmlTags } from './xml-tags';

const DEVICE_NS = 'http://www.onvif.org/ver10/device/wsdl';
const MEDIA_NS = 'http://www.onvif.org/ver10/media/wsdl';
const TIMEOUT_MS = 10_000;

/** A camera's ONVIF address as a source: `onvif://user:pass@host[:port][/path][?subtype=<profile token or index>]`. */
export interface OnvifTarget {
  deviceUrl: string;
  username: string;
  password: string;
  /** A profile token, or its position (0 the first); absent: the first profile. */
  subtype?: string;
}

export function parseOnvifUrl(source: string): OnvifTarget {
  const url = new URL(source.replace(/^onvif:/i, 'http:'));
  const subtype = url.searchParams.get('subtype') ?? undefined;
  const path = url.pathname === '/' || url.pathname === '' ? '/onvif/device_service' : url.pathname;
  return {
    deviceUrl: `http://${url.host}${path}`,
    username: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
    ...(subtype !== undefined ? { subtype } : {}),
  };
}

/** WS-Security UsernameToken with a password digest (ONVIF Core 5.12): nonce, time, SHA-1. */
function securityHeader(username: string, password: string): string {
  if (!username) return '';
  const nonce = randomBytes(16);
  const created = new Date().toISOString();
  const digest = createHash('sha1')
    .update(Buffer.concat([nonce, Buffer.from(created), Buffer.from(password)]))
    .digest('base64');
  return `<s:Header><wsse:Security xmlns:wsse="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd" xmlns:wsu="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd"><wsse:UsernameToken><wsse:Username>${xmlEscape(username)}</wsse:Username><wsse:Password Type="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-username-token-profile-1.0#PasswordDigest">${digest}</wsse:Password><wsse:Nonce EncodingType="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-soap-message-security-1.0#Base64Binary">${nonce.toString('base64')}</wsse:Nonce><wsu:Created>${created}</wsu:Created></wsse:UsernameToken></wsse:Security></s:Header>`;
}

async function soapCall(url: string, target: OnvifTarget, body: string, signal: AbortSignal): Promise<string> {
  const xml = `<?xml version="1.0" encoding="UTF-8"?><s:Envelope xmlns:s="http://www.w3.org/2003/05/soap-envelope" xmlns:tt="http://www.onvif.org/ver10/schema">${securityHeader(target.username, target.password)}<s:Body>${body}</s:Body></s:Envelope>`;
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/soap+xml; charset=utf-8' },
    body: xml,
    signal: AbortSignal.any([signal, AbortSignal.timeout(TIMEOUT_MS)]),
  });
  const text = await response.text();
  if (!response.ok) {
    const reason = elementText(text, 'Text') ?? `HTTP ${response.status}`;
    throw new Error(`ONVIF ${new URL(url).host}: ${reason}`);
  }
  return text;
}

/** The profile tokens of a GetProfilesResponse, in order. */
export function profileTokens(xml: string): string[] {
  return [...xmlTags(xml)]
    .flatMap((tag) => (tag.name === 'Profiles' && !tag.closing ? [attributeOf(tag, 'token') ?? ''] : []))
    .filter((token) => token !== '');
}

async function mediaServiceUrl(target: OnvifTarget, signal: AbortSignal): Promise<string> {
  const capabilities = await soapCall(
    target.deviceUrl,
    target,
    `<GetCapabilities xmlns="${DEVICE_NS}"><Category>Media</Category></GetCapabilities>`,
    signal,
  );
  const media = childText(capabilities, 'Media', 'XAddr')?.trim() || target.deviceUrl;
  // A camera that answers its own LAN address, reached here by another name: keep the host used.
  const mediaUrl = assertLearnedUrl(media, `ONVIF ${new URL(target.deviceUrl).host} (GetCapabilities)`, ['http', 'https']);
  mediaUrl.host = new URL(target.deviceUrl).host;
  return mediaUrl.href;
}

/** A camera's maker and model (GetDeviceInformation) and its profile tokens, for a list of its streams. */
export async function describeOnvifDevice(target: OnvifTarget, signal: AbortSignal): Promise<{ name: string; tokens: string[] }> {
  const information = await soapCall(target.deviceUrl, target, `<GetDeviceInformation xmlns="${DEVICE_NS}"/>`, signal);
  const name =
    [elementText(information, 'Manufacturer'), elementText(information, 'Model')].filter(Boolean).join(' ') ||
    new URL(target.deviceUrl).host;
  const tokens = profileTokens(await soapCall(await mediaServiceUrl(target, signal), target, `<GetProfiles xmlns="${MEDIA_NS}"/>`, signal));
  return { name, tokens };
}

/**
 * The RTSP address an ONVIF camera streams the chosen profile on: device service → media
 * service address (GetCapabilities) → profiles → GetStreamUri (RTP over RTSP). The camera's
 * ONVIF login is put into the RTSP URL when the camera leaves it out, as cameras expect.
 */
export async function resolveOnvifStream(target: OnvifTarget, signal: AbortSignal): Promise<string> {
  const mediaUrl = new URL(await mediaServiceUrl(target, signal));
  const deviceUrl = new URL(target.deviceUrl);
  const tokens = profileTokens(await soapCall(mediaUrl.href, target, `<GetProfiles xmlns="${MEDIA_NS}"/>`, signal));
  if (tokens.length === 0) throw new Error(`ONVIF ${deviceUrl.host}: the camera has no media profile`);
  const wanted = target.subtype;
  const token =
    wanted === undefined ? tokens[0]! : tokens.includes(wanted) ? wanted : /^\d+$/.test(wanted) ? tokens[Number(wanted)] : undefined;
  if (!token) throw new Error(`ONVIF ${deviceUrl.host}: no profile ${wanted} (it has ${tokens.join(', ')})`);
  const uriXml = await soapCall(
    mediaUrl.href,
    target,
    `<GetStreamUri xmlns="${MEDIA_NS}"><StreamSetup><tt:Stream>RTP-Unicast</tt:Stream><tt:Transport><tt:Protocol>RTSP</tt:Protocol></tt:Transport></StreamSetup><ProfileToken>${xmlEscape(token)}</ProfileToken></GetStreamUri>`,
    signal,
  );
  const uri = elementText(uriXml, 'Uri');
  if (!uri) throw new Error(`ONVIF ${deviceUrl.host}: GetStreamUri answered no URI for ${token}`);
  // Whatever the camera answers is played only if it is a network address: a device answering
  // `exec:...` or `ffmpeg:/a/local/file` must not make this machine run or read anything.
  const rtsp = assertLearnedUrl(uri, `ONVIF ${deviceUrl.host} (GetStreamUri)`);
  if (target.username && !rtsp.username) {
    rtsp.username = encodeURIComponent(target.username);
    rtsp.password = encodeURIComponent(target.password);
  }
  return rtsp.href;
}
