import type { Codec, Media, MediaDirection } from '../../core/media';

const STATIC_PAYLOADS: Record<number, Omit<Codec, 'payloadType'>> = {
  0: { name: 'PCMU', clockRate: 8000, channels: 1 },
  8: { name: 'PCMA', clockRate: 8000, channels: 1 },
  14: { name: 'MPA', clockRate: 90000 },
  26: { name: 'JPEG', clockRate: 90000 },
};

export class SdpError extends Error {
  override name = 'SdpError';
}

/**
 * The video and audio medias of an SDP (RFC 4566), with rtpmap/fmtp per payload type. A camera's
 * SDP marks its two-way audio input (ONVIF backchannel) `a=sendonly`: with `backchannel` set,
 * such a media is a `sendonly` one (the relay sends to it), every other one has `direction`.
 */
export function parseSdp(text: string, direction: MediaDirection = 'recvonly', options: { backchannel?: boolean } = {}): Media[] {
  if (!/^v=0/m.test(text)) throw new SdpError('not an SDP: no v=0 line');
  const medias: Media[] = [];
  let current:
    | { kind: string; payloads: number[]; rtpmap: Map<number, string>; fmtp: Map<number, string>; control?: string; sendonly?: boolean }
    | undefined;
  const finish = () => {
    if (!current || (current.kind !== 'video' && current.kind !== 'audio')) return;
    const codecs: Codec[] = [];
    for (const pt of current.payloads) {
      const map = current.rtpmap.get(pt);
      let codec: Codec | undefined;
      if (map) {
        const [name, rate, channels] = map.split('/');
        codec = {
          name: (name ?? '').toUpperCase(),
          clockRate: Number(rate) || 90000,
          payloadType: pt,
          ...(channels ? { channels: Number(channels) } : {}),
        };
      } else if (STATIC_PAYLOADS[pt]) {
        codec = { ...STATIC_PAYLOADS[pt]!, payloadType: pt };
      }
      if (!codec) continue;
      const fmtp = current.fmtp.get(pt);
      if (fmtp) codec.fmtp = fmtp;
      codecs.push(codec);
    }
    const mediaDirection: MediaDirection = options.backchannel && current.sendonly ? 'sendonly' : direction;
    if (codecs.length > 0)
      medias.push({ kind: current.kind, direction: mediaDirection, codecs, ...(current.control ? { control: current.control } : {}) });
  };
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line.startsWith('m=')) {
      finish();
      const [kind, , , ...payloads] = line.slice(2).split(' ');
      current = {
        kind: kind ?? '',
        payloads: payloads.map(Number).filter((n) => Number.isInteger(n) && n >= 0 && n < 128),
        rtpmap: new Map(),
        fmtp: new Map(),
      };
    } else if (current && line.startsWith('a=rtpmap:')) {
      const match = /^a=rtpmap:(\d+) (\S+)/.exec(line);
      if (match) current.rtpmap.set(Number(match[1]), match[2]!);
    } else if (current && line.startsWith('a=fmtp:')) {
      const match = /^a=fmtp:(\d+) (.+)$/.exec(line);
      if (match) current.fmtp.set(Number(match[1]), match[2]!);
    } else if (current && line === 'a=sendonly') {
      current.sendonly = true;
    } else if (current && line.startsWith('a=control:')) {
      current.control = line.slice('a=control:'.length);
    }
  }
  finish();
  if (medias.length === 0) throw new SdpError('SDP has no audio or video media the relay understands');
  return medias;
}

/** An SDP for the given tracks, `a=control:trackID=<i>` each. */
export function buildSdp(tracks: Array<{ kind: string; codec: Codec }>, options: { sessionName: string; origin?: string }): string {
  const lines = [
    'v=0',
    `o=- 0 0 IN IP4 ${options.origin ?? '127.0.0.1'}`,
    `s=${options.sessionName}`,
    'c=IN IP4 0.0.0.0',
    't=0 0',
    'a=control:*',
  ];
  tracks.forEach(({ kind, codec }, i) => {
    lines.push(`m=${kind} 0 RTP/AVP ${codec.payloadType}`);
    lines.push(`a=rtpmap:${codec.payloadType} ${codec.name}/${codec.clockRate}${codec.channels ? `/${codec.channels}` : ''}`);
    if (codec.fmtp) lines.push(`a=fmtp:${codec.payloadType} ${codec.fmtp}`);
    lines.push(`a=control:trackID=${i}`);
  });
  return lines.join('\r\n') + '\r\n';
}

/** Resolves a media's control attribute against the content base (RFC 2326 C.1.1). */
export function controlUrl(base: string, control: string | undefined, index: number): string {
  if (!control || control === '*') return base;
  if (/^rtsp[s]?:\/\//i.test(control)) return control;
  void index;
  return base.endsWith('/') ? base + control : `${base}/${control}`;
}
