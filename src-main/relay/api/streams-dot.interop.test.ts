import { execFile, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishTestPattern, startRelay, waitForMedia, type RelayUnderTest } from '../test/relay-test-kit';
import { humanBytes, streamsDot } from './streams-dot';
import { waitUntil } from '../../test-support/time';

/** What Graphviz itself reads from the text: node labels and groups, edges by label. */
async function parseDot(
  text: string,
): Promise<{ nodes: { name: string; label?: string; group?: string }[]; edges: { from: string; to: string; label?: string }[] }> {
  const child = execFile('dot', ['-Tjson0']);
  const output = new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`dot refused the text (exit ${code}):\n${text}`))));
  });
  child.stdin!.end(text);
  const graph = JSON.parse(await output) as {
    objects?: { _gvid: number; name: string; label?: string; group?: string }[];
    edges?: { tail: number; head: number; label?: string }[];
  };
  const objects = graph.objects ?? [];
  const nameOf = (gvid: number) => objects.find((o) => o._gvid === gvid)!.name;
  return {
    nodes: objects.map(({ name, label, group }) => ({ name, label, group })),
    edges: (graph.edges ?? []).map((e) => ({ from: nameOf(e.tail), to: nameOf(e.head), label: e.label })),
  };
}

describe('streamsDot', () => {
  it('labels bytes in decimal units as go2rtc does', () => {
    expect([humanBytes(999), humanBytes(1500), humanBytes(2_000_000), humanBytes(3_210_000_000)]).toEqual([
      '999 B',
      '1.50 KB',
      '2.00 MB',
      '3.21 GB',
    ]);
  });

  it('escapes quotes in labels and leaves out producers that are not connected', async () => {
    const text = streamsDot([
      [
        'cam',
        {
          producers: [{ url: 'rtsp://x' }],
          consumers: [
            { id: 7, format_name: 'rtsp', protocol: 'rtsp+tcp', remote_addr: '10.0.0.9:5000', user_agent: 'say "hi"', bytes_send: 10 },
          ],
        },
      ],
    ]);
    const graph = await parseDot(text);
    expect(graph.nodes.map((n) => n.name).sort()).toEqual(['10.0.0.9', 'conn_7']);
    expect(text).toContain("user_agent=say 'hi'");
  });
});

describe('GET /api/streams.dot', () => {
  let relay: RelayUnderTest;
  let camera: ChildProcess;
  let viewer: ChildProcess;
  beforeAll(async () => {
    relay = await startRelay('  cam:\n');
    camera = publishTestPattern(relay.rtspUrl('cam'), 60);
    await waitForMedia(relay, 'cam');
    viewer = execFile('ffmpeg', [
      '-loglevel',
      'error',
      '-rtsp_transport',
      'tcp',
      '-i',
      relay.rtspUrl('cam'),
      '-t',
      '30',
      '-f',
      'null',
      '-',
    ]);
  }, 30_000);
  afterAll(async () => {
    viewer.kill('SIGKILL');
    camera.kill('SIGKILL');
    await relay.stop();
  });

  it('draws the publisher, its tracks and the viewer, as Graphviz reads it', async () => {
    const text = await waitUntil(
      async () => {
        const response = await fetch(`${relay.api}/api/streams.dot?src=cam`);
        expect(response.headers.get('content-type')).toBe('text/vnd.graphviz');
        const text = await response.text();
        return text.includes('group="consumer"') && text;
      },
      { timeout: 10_000, interval: 100, what: 'the viewer in the graph' },
    );
    const graph = await parseDot(text);
    const groups = (group: string) => graph.nodes.filter((n) => n.group === group);
    expect(groups('producer')).toHaveLength(1);
    expect(
      groups('node')
        .map((n) => n.label)
        .sort(),
    ).toEqual(['aac', 'h264']);
    expect(groups('consumer')).toHaveLength(1);
    expect(groups('host').map((n) => n.name)).toEqual(['127.0.0.1']);
    const consumer = groups('consumer')[0]!.name;
    // The viewer reads both tracks, and the edges carry what went along them.
    const intoViewer = graph.edges.filter((e) => e.to === consumer);
    expect(intoViewer.map((e) => graph.nodes.find((n) => n.name === e.from)!.label).sort()).toEqual(['aac', 'h264']);
    expect(intoViewer.every((e) => /^\d+(\.\d\d)? [KMGT]?B$/.test(e.label ?? ''))).toBe(true);
    // Unknown names are left out; without src every stream is drawn.
    expect(await (await fetch(`${relay.api}/api/streams.dot?src=nope`)).text()).toBe('digraph {\n}');
    expect(await (await fetch(`${relay.api}/api/streams.dot`)).text()).toContain('group="producer"');
  });
});
