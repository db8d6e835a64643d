import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startTestEngine } from '@main/engine/test-engine';
import { listen } from '@main/platform/listen';
import { relayModule } from '../../relay-module';

const streams =
  'streams:\n  demo: ffmpeg:virtual?video=testsrc2&size=320x240#video=h264\n  job: exec:ffmpeg -re -i clip.mp4 -c copy -f rtsp {output}\n';

interface StreamsBody {
  [name: string]: { producers: Array<{ url: string; state?: string; error?: string }> };
}

describe('ffmpeg: and exec: sources without the RTSP server', () => {
  it('stay listed, and a dial fails saying the RTSP server is needed, shown on the producer and logged once', async () => {
    const running = await startTestEngine({
      modules: [relayModule],
      config: `data_dir: ./data\nlog:\n  level: info\nrtsp:\n  listen: ""\n${streams}`,
    });
    try {
      const url = running.engine.url;
      const before = (await (await fetch(`${url}/api/streams`)).json()) as StreamsBody;
      expect(before.demo?.producers.map((p) => p.url)).toEqual(['ffmpeg:virtual?video=testsrc2&size=320x240#video=h264']);
      expect(before.job?.producers.map((p) => p.url)).toEqual(['exec:ffmpeg -re -i clip.mp4 -c copy -f rtsp {output}']);

      const watch = await fetch(`${url}/api/stream.mp4?src=demo`);
      expect(watch.status).toBeGreaterThanOrEqual(500);
      const needed = "ffmpeg: sources publish through the relay's RTSP server, and the RTSP server is off (rtsp.listen is empty)";
      expect(await watch.text()).toContain(needed);

      const after = (await (await fetch(`${url}/api/streams`)).json()) as StreamsBody;
      expect(after.demo?.producers[0]).toMatchObject({ state: 'idle', error: needed });
      // The first dial retried within its budget; the log says it once all the same.
      expect(
        running.logLines.filter((line) => line.includes(needed) && line.includes('[relay]') && !line.includes('request failed')),
      ).toHaveLength(1);
    } finally {
      await running.stop();
    }
  }, 30_000);

  it('a busy RTSP port names the setting to change, and the sources it affects', async () => {
    const taken = createServer();
    const port = await listen(taken, 0, '127.0.0.1');
    try {
      const running = await startTestEngine({
        modules: [relayModule],
        config: `data_dir: ./data\nlog:\n  level: info\nrtsp:\n  listen: 127.0.0.1:${port}\n${streams}`,
      });
      try {
        const log = running.logLines.join('\n');
        expect(log).toContain(`RTSP server not started: 127.0.0.1:${port} is already in use by another program`);
        expect(log).toContain('change rtsp.listen (an empty value turns the RTSP server off); ffmpeg: and exec: sources need it');
        expect(log).not.toContain('stream source ignored');
      } finally {
        await running.stop();
      }
    } finally {
      taken.close();
    }
  });

  it('refuses a streams section that is not a mapping', async () => {
    await expect(startTestEngine({ modules: [relayModule], config: 'streams: hello\n' })).rejects.toThrow(
      /streams: expected stream names and their sources/,
    );
  });
});
