import { spawn } from 'node:child_process';

/**
 * Video encoding on a GPU or a SoC encoder (`ffmpeg:cam#video=h264#hardware`), with go2rtc's
 * engine names: Intel/AMD through VAAPI, NVIDIA through CUDA (NVENC), Raspberry Pi through
 * V4L2 M2M, Rockchip through RKMPP.
 */
export const HARDWARE_ENGINES = ['vaapi', 'cuda', 'v4l2m2m', 'rkmpp'] as const;
export type HardwareEngine = (typeof HARDWARE_ENGINES)[number];

type EncoderOptions = ReadonlyArray<readonly [string, string]>;

/** Encoder options per engine and codec (go2rtc's settings: a GOP of 50, no B-frames). */
const ENCODERS: Record<HardwareEngine, Partial<Record<string, EncoderOptions>>> = {
  vaapi: {
    h264: [
      ['c', 'h264_vaapi'],
      ['g', '50'],
      ['bf', '0'],
      ['profile', 'high'],
      ['level', '4.1'],
      ['sei', '0'],
    ],
    h265: [
      ['c', 'hevc_vaapi'],
      ['g', '50'],
      ['bf', '0'],
      ['profile', 'main'],
      ['level', '5.1'],
      ['sei', '0'],
    ],
    mjpeg: [['c', 'mjpeg_vaapi']],
  },
  cuda: {
    h264: [
      ['c', 'h264_nvenc'],
      ['g', '50'],
      ['bf', '0'],
      ['profile', 'high'],
      ['preset', 'p2'],
      ['tune', 'll'],
    ],
    h265: [
      ['c', 'hevc_nvenc'],
      ['g', '50'],
      ['bf', '0'],
      ['profile', 'main'],
      ['preset', 'p2'],
      ['tune', 'll'],
    ],
  },
  v4l2m2m: {
    h264: [
      ['c', 'h264_v4l2m2m'],
      ['g', '50'],
      ['bf', '0'],
    ],
    h265: [
      ['c', 'hevc_v4l2m2m'],
      ['g', '50'],
      ['bf', '0'],
    ],
  },
  rkmpp: {
    h264: [
      ['c', 'h264_rkmpp'],
      ['g', '50'],
      ['bf', '0'],
      ['profile', 'high'],
      ['level', '4.1'],
    ],
    h265: [
      ['c', 'hevc_rkmpp'],
      ['g', '50'],
      ['bf', '0'],
      ['profile', 'main'],
      ['level', '5.1'],
    ],
    mjpeg: [['c', 'mjpeg_rkmpp']],
  },
};

/** The engine's encoder options for a codec, or undefined (no engine, or it cannot encode that codec). */
export function encoderFor(engine: HardwareEngine | undefined, codec: string): EncoderOptions | undefined {
  return engine ? ENCODERS[engine][codec] : undefined;
}

/** Input options that decode on the same device, so frames stay in its memory (not for filters it lacks). */
export function hardwareInput(engine: HardwareEngine, filters: readonly string[]): string[] {
  if (engine === 'vaapi') return ['-hwaccel', 'vaapi', '-hwaccel_output_format', 'vaapi', '-hwaccel_flags', 'allow_profile_mismatch'];
  // NVENC has no hardware transpose: with a rotation the frames come back to the CPU first.
  if (engine === 'cuda')
    return ['-hwaccel', 'cuda', '-hwaccel_output_format', filters.some((f) => f.startsWith('transpose')) ? 'nv12' : 'cuda'];
  return [];
}

/** The software filters turned into the engine's own (scale → scale_vaapi ...), uploading frames first where needed. */
export function hardwareFilters(engine: HardwareEngine, filters: readonly string[]): string[] {
  if (engine === 'vaapi') {
    const turned = filters.map((f) =>
      f
        .replace(/^scale=/, 'scale_vaapi=')
        .replace(/^transpose=1,transpose=1$/, 'transpose_vaapi=4')
        .replace(/^transpose=/, 'transpose_vaapi='),
    );
    // Frames a software decoder made (a file, a test pattern) must be uploaded first.
    return ['format=vaapi|nv12,hwupload', ...turned];
  }
  if (engine === 'cuda') {
    if (filters.some((f) => f.startsWith('transpose'))) return [...filters, 'hwupload'];
    return filters.map((f) => f.replace(/^scale=/, 'scale_cuda='));
  }
  return [...filters];
}

/** The one-second encodes go2rtc runs to tell which engines work on this machine. */
const PROBES: ReadonlyArray<{ engine: HardwareEngine; codec: string; args: string[] }> = [
  {
    engine: 'vaapi',
    codec: 'h264',
    args: [
      '-init_hw_device',
      'vaapi',
      '-f',
      'lavfi',
      '-i',
      'testsrc2',
      '-t',
      '1',
      '-vf',
      'format=nv12,hwupload',
      '-c',
      'h264_vaapi',
      '-f',
      'null',
      '-',
    ],
  },
  {
    engine: 'vaapi',
    codec: 'h265',
    args: [
      '-init_hw_device',
      'vaapi',
      '-f',
      'lavfi',
      '-i',
      'testsrc2',
      '-t',
      '1',
      '-vf',
      'format=nv12,hwupload',
      '-c',
      'hevc_vaapi',
      '-f',
      'null',
      '-',
    ],
  },
  {
    engine: 'vaapi',
    codec: 'mjpeg',
    args: [
      '-init_hw_device',
      'vaapi',
      '-f',
      'lavfi',
      '-i',
      'testsrc2',
      '-t',
      '1',
      '-vf',
      'format=nv12,hwupload',
      '-c',
      'mjpeg_vaapi',
      '-f',
      'null',
      '-',
    ],
  },
  {
    engine: 'cuda',
    codec: 'h264',
    args: ['-init_hw_device', 'cuda', '-f', 'lavfi', '-i', 'testsrc2', '-t', '1', '-c', 'h264_nvenc', '-f', 'null', '-'],
  },
  {
    engine: 'cuda',
    codec: 'h265',
    args: ['-init_hw_device', 'cuda', '-f', 'lavfi', '-i', 'testsrc2', '-t', '1', '-c', 'hevc_nvenc', '-f', 'null', '-'],
  },
  { engine: 'v4l2m2m', codec: 'h264', args: ['-f', 'lavfi', '-i', 'testsrc2', '-t', '1', '-c', 'h264_v4l2m2m', '-f', 'null', '-'] },
  { engine: 'v4l2m2m', codec: 'h265', args: ['-f', 'lavfi', '-i', 'testsrc2', '-t', '1', '-c', 'hevc_v4l2m2m', '-f', 'null', '-'] },
  { engine: 'rkmpp', codec: 'h264', args: ['-f', 'lavfi', '-i', 'testsrc2', '-t', '1', '-c', 'h264_rkmpp', '-f', 'null', '-'] },
  { engine: 'rkmpp', codec: 'h265', args: ['-f', 'lavfi', '-i', 'testsrc2', '-t', '1', '-c', 'hevc_rkmpp', '-f', 'null', '-'] },
];

interface HardwareProbeResult {
  engine: HardwareEngine;
  codec: string;
  works: boolean;
}

export interface HardwareProber {
  /** Runs every probe (once per relay; later calls get the same answer). */
  probeAll(): Promise<HardwareProbeResult[]>;
  /** The first engine that encodes `codec` here, or undefined for software. */
  engineFor(codec: string): Promise<HardwareEngine | undefined>;
}

const PROBE_TIMEOUT_MS = 10_000;

function encodes(ffmpegBinary: string, args: string[]): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(ffmpegBinary, ['-hide_banner', '-loglevel', 'error', ...args], { stdio: 'ignore' });
    const timer = setTimeout(() => child.kill('SIGKILL'), PROBE_TIMEOUT_MS);
    child.once('error', () => resolve(false));
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code === 0);
    });
  });
}

/** Probes this machine's encoders with real ffmpeg runs; the answer is kept for the relay's lifetime. */
export function createHardwareProber(ffmpegBinary = 'ffmpeg'): HardwareProber {
  let results: Promise<HardwareProbeResult[]> | undefined;
  const probeAll = () => {
    // One probe at a time: drivers misbehave when several contexts open at once.
    results ??= PROBES.reduce<Promise<HardwareProbeResult[]>>(
      async (done, probe) => [
        ...(await done),
        { engine: probe.engine, codec: probe.codec, works: await encodes(ffmpegBinary, probe.args) },
      ],
      Promise.resolve([]),
    );
    return results;
  };
  return {
    probeAll,
    engineFor: async (codec) => (await probeAll()).find((r) => r.codec === codec && r.works)?.engine,
  };
}
