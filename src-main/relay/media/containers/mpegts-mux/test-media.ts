import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** How ffprobe and ffmpeg read the video of a file or URL (`seconds`: how much of a live one). */
export interface VideoReading {
  /** What `ffmpeg -v error` printed while decoding (empty: not one error). */
  errors: string;
  /** Frames ffmpeg decoded. */
  decoded: number;
  /** Packets in the order stored (decode order): presentation and decode times, in the stream's time base. */
  packets: Array<{ pts: number; dts: number }>;
  /** The decoded frames' best_effort_timestamp, in the order the decoder gave them out. */
  shown: number[];
}

export async function readVideo(input: string, seconds?: number): Promise<VideoReading> {
  const limit = seconds === undefined ? [] : ['-t', String(seconds)];
  const interval = seconds === undefined ? [] : ['-read_intervals', `%+${seconds}`];
  const [decode, probe] = await Promise.all([
    run('ffmpeg', ['-hide_banner', '-v', 'error', '-stats', '-i', input, ...limit, '-map', '0:v:0', '-f', 'null', '-'], {
      maxBuffer: 16 << 20,
    }),
    run(
      'ffprobe',
      [
        '-v',
        'error',
        ...interval,
        '-select_streams',
        'v:0',
        '-show_entries',
        'packet=pts,dts:frame=best_effort_timestamp',
        '-of',
        'json',
        input,
      ],
      { maxBuffer: 64 << 20 },
    ),
  ]);
  const counts = [...decode.stderr.matchAll(/frame=\s*(\d+)/g)].map((m) => Number(m[1]));
  // Asked for both, ffprobe lists packets and frames in one list, as it read and decoded them.
  const parsed = JSON.parse(probe.stdout) as {
    packets_and_frames?: Array<{ type: string; pts?: number; dts?: number; best_effort_timestamp?: number }>;
  };
  const entries = parsed.packets_and_frames ?? [];
  return {
    errors: decode.stderr
      .replace(/^frame=.*$/gm, '')
      .replace(/\r/g, '')
      .trim(),
    decoded: counts.at(-1) ?? 0,
    packets: entries.filter((e) => e.type === 'packet').map((p) => ({ pts: Number(p.pts), dts: Number(p.dts) })),
    shown: entries.filter((e) => e.type === 'frame').map((f) => Number(f.best_effort_timestamp)),
  };
}

/**
 * What is wrong with a reading of B-frame video, as sentences (none: all good): decode times
 * must rise, never pass the presentation time, the file must really reorder (a presentation
 * time below an earlier one), and the decoder must give frames out in presentation order,
 * `step` apart when given.
 */
export function decodeOrderProblems(reading: VideoReading, step?: number): string[] {
  const problems: string[] = [];
  const { packets, shown } = reading;
  packets.forEach((p, i) => {
    if (!(p.dts <= p.pts)) problems.push(`packet ${i}: dts ${p.dts} after pts ${p.pts}`);
    if (i > 0 && !(p.dts > packets[i - 1]!.dts)) problems.push(`packet ${i}: dts ${p.dts} not above ${packets[i - 1]!.dts}`);
  });
  if (!packets.some((p, i) => i > 0 && p.pts < packets[i - 1]!.pts))
    problems.push('no packet is shown before the one decoded ahead of it: no B-frames');
  shown.forEach((t, i) => {
    if (i === 0) return;
    const gap = t - shown[i - 1]!;
    if (!(gap > 0) || (step !== undefined && gap !== step)) problems.push(`frame ${i}: shown at ${t}, ${gap} after the one before`);
  });
  return problems;
}

/**
 * A camera that encodes as x264 does files by default (B-frames: veryfast, -bf 2, no
 * zerolatency), 320x240 25 fps with AAC, publishing to the relay over RTSP/TCP (the relay's
 * outputs' tests).
 */
export function publishWithBFrames(url: string, seconds = 120): ChildProcess {
  return spawn(
    'ffmpeg',
    [
      '-hide_banner',
      '-loglevel',
      'error',
      '-re',
      '-f',
      'lavfi',
      '-i',
      `testsrc=size=320x240:rate=25:duration=${seconds}`,
      '-f',
      'lavfi',
      '-i',
      `sine=frequency=440:sample_rate=44100:duration=${seconds}`,
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-bf',
      '2',
      '-g',
      '25',
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'aac',
      '-b:a',
      '64k',
      '-f',
      'rtsp',
      '-rtsp_transport',
      'tcp',
      url,
    ],
    { stdio: 'ignore' },
  );
}
