// go2rtc's own player (www/stream.html with video-rtc.js, read at run time from a go2rtc
// checkout) in Chromium against the relay, one mode at a time (webrtc, mse, hls, mjpeg): time
// to the first picture shown, next to go2rtc itself playing the same camera when its binary is
// given. The camera is GStreamer's RTSP server (720p H.264 at 15 fps, a keyframe a second, PCMU
// audio); each server pulls it as `cam` and an RTSP viewer keeps it pulled, so the figures are
// the player's start on a running stream, not the camera's.
//
// The pages sit on each server's own origin, as go2rtc serves them: Chromium opens
// `<server>/stream.html?src=cam&mode=<mode>` and the three player files are answered from the
// checkout by Chromium's request interception (only while the page loads); everything else,
// the player's WebSocket (`api/ws`, relative to the page) and the HLS requests among it, goes to
// the server. The relay serves none of go2rtc's files itself. Chromium takes a page answered
// by interception for a public one, and its Local Network Access checks would then block the
// player's requests to loopback: they are off, as they would not apply to a page the server
// itself served.
//
//   npm run bench:go2rtc-player [-- --www <go2rtc checkout> --runs 3 --timeout 10]
//   GO2RTC_WWW=<go2rtc checkout> GO2RTC_BIN=<go2rtc binary> npm run bench:go2rtc-player
import { spawn, type ChildProcess } from 'node:child_process';
import { parseArgs } from 'node:util';
import { chromium, type Browser } from 'playwright-core';
import { startGstCamera } from '../src-main/relay/protocols/rtsp/test-support/gst-camera';
import { startBenchEngine } from './lib/engine';
import { installFirstFrameProbe, type FirstFrame } from './lib/first-frame-probe';
import { startGo2rtc } from './lib/go2rtc-peer';
import { contentTypeOf, PLAYER_FILES, readGo2rtcWww } from './lib/go2rtc-www';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    www: { type: 'string' },
    runs: { type: 'string', default: '3' },
    timeout: { type: 'string', default: '10' },
    modes: { type: 'string', default: 'webrtc,mse,hls,mjpeg' },
  },
});
const wwwDir = values.www ?? positionals[0] ?? process.env.GO2RTC_WWW;
if (!wwwDir) {
  console.error('give a go2rtc checkout: --www <dir>, an argument or GO2RTC_WWW (a git directory, a checkout or its www folder)');
  process.exit(2);
}
const runs = Number(values.runs);
const timeoutMs = Number(values.timeout) * 1000;
const modes = values.modes.split(',');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

interface Server {
  name: string;
  api: string;
}

/** One page load: the probe's findings, and the player's own words (its mode and status corner) when nothing showed. */
interface Run {
  frame: FirstFrame;
  said: string;
}

async function openOnce(browser: Browser, files: Map<string, Buffer>, server: Server, mode: string): Promise<Run> {
  const page = await browser.newPage();
  await page.addInitScript(installFirstFrameProbe);
  const origin = new URL(server.api).origin;
  await page.route(
    (url) => url.origin === origin && (PLAYER_FILES as readonly string[]).includes(url.pathname.slice(1)),
    (route) => {
      const file = new URL(route.request().url()).pathname.slice(1);
      return route.fulfill({ status: 200, contentType: contentTypeOf(file), body: files.get(file)! });
    },
  );
  try {
    await page.goto(`${server.api}/stream.html?src=cam&mode=${mode}`, { waitUntil: 'domcontentloaded' });
    // The player files are in: media requests go to the server untouched.
    await page.unrouteAll();
    await page
      .waitForFunction(() => (window as unknown as { firstFrame: FirstFrame }).firstFrame.frameAt !== null, undefined, {
        timeout: timeoutMs,
      })
      .catch(() => undefined);
    const frame = await page.evaluate(() => (window as unknown as { firstFrame: FirstFrame }).firstFrame);
    const said = await page.evaluate(() =>
      [document.querySelector('.mode')?.textContent, document.querySelector('.status')?.textContent].filter(Boolean).join(': '),
    );
    return { frame, said };
  } finally {
    await page.close();
  }
}

/** A mode's cell: the median from socket to picture (and from navigation), or why nothing played. */
function describe(results: Run[]): string {
  const played = results.filter((r) => r.frame.frameAt !== null);
  if (played.length === 0) {
    const last = results.at(-1)!;
    const why = [
      last.said && `player says "${last.said}"`,
      `messages ${last.frame.messages.join(', ') || 'none'}`,
      last.frame.mediaError && `video error ${last.frame.mediaError}`,
    ]
      .filter(Boolean)
      .join('; ');
    return `did not play within ${timeoutMs / 1000} s (${why})`;
  }
  const since = (at: (f: FirstFrame) => number | null) =>
    median(played.map((r) => (at(r.frame) ?? NaN) - (r.frame.socketAt ?? 0))).toFixed(0);
  const fromLoad = median(played.map((r) => r.frame.frameAt!)).toFixed(0);
  const { width, height, shownAs } = played[0]!.frame;
  const missed = played.length < results.length ? `, ${results.length - played.length} of ${results.length} did not play` : '';
  return `${since((f) => f.frameAt)} ms (answer ${since((f) => f.answerAt)} ms; ${fromLoad} ms from navigation), ${width}x${height} ${shownAs}${missed}`;
}

/** An RTSP viewer that keeps a server pulling the camera. */
function keepPulling(rtspUrl: string): ChildProcess {
  return spawn('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-rtsp_transport', 'tcp', '-i', rtspUrl, '-c', 'copy', '-f', 'null', '-'], {
    stdio: 'ignore',
  });
}

async function main(): Promise<void> {
  const files = await readGo2rtcWww(wwwDir!);
  const camera = await startGstCamera({ size: '1280x720' });
  const streams = `  cam: ${camera.url}\n`;
  const engine = await startBenchEngine({ streams, extra: 'webrtc:\n  listen: 127.0.0.1:0\n' });
  const servers: Server[] = [{ name: 'relay', api: engine.api }];
  const viewers = [keepPulling(engine.rtspUrl('cam'))];
  const peerBinary = process.env.GO2RTC_BIN;
  const peer = peerBinary ? await startGo2rtc(peerBinary, streams) : undefined;
  if (peer) {
    servers.push({ name: 'go2rtc', api: peer.api });
    viewers.push(keepPulling(peer.rtspUrl('cam')));
  }
  // No name but loopback resolves: the player's public STUN servers and the page's icons stay unasked.
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--autoplay-policy=no-user-gesture-required',
      '--disable-features=LocalNetworkAccessChecks',
      '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1',
    ],
  });
  try {
    await sleep(3000);
    console.log(
      `go2rtc player (${wwwDir}), camera 1280x720 H.264 15 fps + PCMU, ${runs} runs per mode, median; time from the player's WebSocket to the first picture shown (and to the server's first answer)`,
    );
    console.log(peer ? `peer: go2rtc ${peerBinary}` : 'peer: not given (set GO2RTC_BIN to a go2rtc binary)');
    for (const mode of modes) {
      const cells: string[] = [];
      for (const server of servers) {
        const results: Run[] = [];
        for (let run = 0; run < runs; run++) {
          results.push(await openOnce(browser, files, server, mode));
          await sleep(500);
        }
        cells.push(`${server.name} ${describe(results)}`);
      }
      console.log(`${mode.padEnd(6)}: ${cells.join(' | ')}`);
    }
  } finally {
    await browser.close();
    for (const viewer of viewers) viewer.kill('SIGKILL');
    await peer?.stop();
    await engine.stop();
    await camera.stop();
  }
}

await main();
