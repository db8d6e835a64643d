import type { HttpRouter } from '@main/platform/http/router';
import type { HardwareProber } from './hardware';

/**
 * GET /api/ffmpeg/hardware: which encoders work on this machine, as go2rtc answers it
 * (`{"sources": [{"name": "OK" | "ERROR", "url": "ffmpeg:...#video=h264#hardware=vaapi"}]}`),
 * so a user can pick an engine for `#hardware=`. The probes run once, on first ask.
 */
export function registerHardwareRoute(http: HttpRouter, prober: HardwareProber): void {
  http.add([
    {
      method: 'GET',
      path: '/api/ffmpeg/hardware',
      handler: async ({ res }) => {
        const results = await prober.probeAll();
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(
          JSON.stringify({
            sources: results.map((r) => ({ name: r.works ? 'OK' : 'ERROR', url: `ffmpeg:...#video=${r.codec}#hardware=${r.engine}` })),
          }),
        );
      },
    },
  ]);
}
