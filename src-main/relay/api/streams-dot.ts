import type { ConnectionInfo } from '../core/producer';

// GET /api/streams.dot: the producer/consumer graph of the streams in Graphviz DOT, as go2rtc
// draws it (its web UI renders it with vis-network): hosts, producers, their tracks, consumers,
// and edges labelled with the bytes that went along them. Attribute values are quoted (`node`
// is a DOT keyword), so Graphviz reads it too.

interface Receiver {
  id: number;
  codec?: Record<string, unknown>;
  bytes?: number;
}
interface SenderStat {
  parent?: number;
  bytes?: number;
}

export interface StreamGraph {
  producers: ConnectionInfo[];
  consumers: ConnectionInfo[];
}

const CODEC_KEYS = ['codec_name', 'sample_rate', 'channels', 'profile', 'level'];

/** 999 B, 1.50 KB, 2.00 MB: decimal units, as go2rtc labels its edges. */
export function humanBytes(n: number): string {
  if (n < 1000) return `${n} B`;
  let value = n / 1000;
  let unit = 0;
  while (value >= 1000 && unit < 4) {
    value /= 1000;
    unit += 1;
  }
  return `${value.toFixed(2)} ${'KMGTP'[unit]}B`;
}

const quote = (text: string) => JSON.stringify(text.replace(/"/g, "'"));

/** The host a connection talks to: its remote address without the port; a child process is this machine. */
function hostOf(info: ConnectionInfo): string {
  if (info.protocol === 'pipe') return '127.0.0.1';
  const address = info.remote_addr ?? '';
  if (address === '') return 'unknown';
  if (address.startsWith('[')) return address.slice(1, address.indexOf(']'));
  const cut = address.search(/[ ,:]/);
  return cut > 0 ? address.slice(0, cut) : address;
}

function connectionTitle(info: ConnectionInfo): string {
  const lines = [`format_name=${info.format_name ?? ''}`];
  if (info.protocol) lines.push(`protocol=${info.protocol}`);
  if (info.source) lines.push(`source=${info.source}`);
  if (info.url) lines.push(`url=${info.url}`);
  if (info.user_agent) lines.push(`user_agent=${info.user_agent}`);
  return lines.join('\n');
}

function codecTitle(codec: Record<string, unknown> | undefined): string {
  return CODEC_KEYS.filter((key) => codec?.[key] !== undefined && codec[key] !== null)
    .map((key) => `${key}=${String(codec![key])}`)
    .join('\n');
}

/** The DOT text of these streams (URLs in them already masked by the caller). */
export function streamsDot(streams: Iterable<[string, StreamGraph]>): string {
  const lines: string[] = [];
  let synthetic = 0;
  const connectionId = (info: ConnectionInfo) => `"conn_${info.id ?? `x${(synthetic += 1)}`}"`;
  for (const [, stream] of streams) {
    for (const producer of stream.producers) {
      const receivers = (producer.receivers ?? []) as Receiver[];
      if (receivers.length === 0 && producer.bytes_recv === undefined) continue; // not connected
      const id = connectionId(producer);
      const host = quote(hostOf(producer));
      lines.push(`${host} [group="host"];`);
      lines.push(`${id} [group="producer", label=${quote(producer.format_name ?? '')}, title=${quote(connectionTitle(producer))}];`);
      lines.push(`${host} -> ${id} [label=${quote(humanBytes(producer.bytes_recv ?? 0))}];`);
      for (const receiver of receivers) {
        lines.push(`${id} -> "track_${receiver.id}" [label=${quote(humanBytes(receiver.bytes ?? 0))}];`);
        lines.push(
          `"track_${receiver.id}" [group="node", label=${quote(String(receiver.codec?.codec_name ?? 'unknown'))}, title=${quote(codecTitle(receiver.codec))}];`,
        );
      }
    }
    for (const consumer of stream.consumers) {
      const id = connectionId(consumer);
      const host = quote(hostOf(consumer));
      lines.push(`${host} [group="host"];`);
      lines.push(`${id} [group="consumer", label=${quote(consumer.format_name ?? '')}, title=${quote(connectionTitle(consumer))}];`);
      lines.push(`${id} -> ${host} [label=${quote(humanBytes(consumer.bytes_send ?? 0))}];`);
      for (const sender of (consumer.senders ?? []) as SenderStat[]) {
        if (sender.parent) lines.push(`"track_${sender.parent}" -> ${id} [label=${quote(humanBytes(sender.bytes ?? 0))}];`);
      }
    }
  }
  return `digraph {\n${lines.join('\n')}${lines.length > 0 ? '\n' : ''}}`;
}
