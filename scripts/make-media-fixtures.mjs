// `node scripts/make-media-fixtures.mjs`: makes again the media the codec and container tests
// read (src-main/relay/test/fixtures/), with the ffmpeg commands listed here, and writes the
// folder's README.md from the same list (what each file is, its size, the command).
//
// The files are checked in: the unit tests read bytes and start no encoder. Run this only to
// add a file or to change how one is made (`node scripts/make-media-fixtures.mjs <file>...`
// makes only those, and the README again); a newer ffmpeg, x264 or x265 makes other bytes (the
// tests check what the media is, not its exact bytes, so they should still pass).
import { spawn } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('../src-main/relay/test/fixtures/', import.meta.url));
const ffmpegBase = ['-hide_banner', '-v', 'error'];

const pattern = (size, extra = '') => ['-f', 'lavfi', '-i', `testsrc=size=${size}:rate=25${extra}`];
const sine = (spec) => ['-f', 'lavfi', '-i', `sine=${spec}`];
const x265Quiet = ['-x265-params', 'log-level=error'];
const jpeg = (options, size = '320x240') => [...pattern(size), '-frames:v', '1', '-c:v', 'mjpeg', ...options, '-f', 'mjpeg'];
/** A fixture made before, read as raw G.711 (ffmpeg runs in the fixtures folder). */
const g711Input = (format, rate, file) => ['-f', format, '-ar', String(rate), '-ac', '1', '-i', file];
/** Loud and quiet tones, a sweep and noise: G.711 test sound that reaches every segment of the law. */
const VOICE = '0.6*sin(440*2*PI*t)*lt(t\\,0.25)+0.02*sin(1234*2*PI*t*t)+0.3*(random(0)-0.5)*gte(t\\,0.25)';

/**
 * Every fixture: `args` go to ffmpeg, which writes the file on stdout; with `rtp`, ffmpeg sends
 * RTP to a local UDP port instead and the file keeps each datagram as it came (see README).
 * One fixture a line, read as a table: the formatter leaves this list as it is.
 */
// prettier-ignore
const FIXTURES = [
  // H.264 and H.265 elementary streams (Annex B)
  { file: 'h264-320x240-2s.h264', what: 'x264 (default preset), 50 frames, a keyframe a second, no B-frames', args: [...pattern('320x240'), '-t', '2', '-c:v', 'libx264', '-g', '25', '-bf', '0', '-pix_fmt', 'yuv420p', '-f', 'h264'] },
  { file: 'h264-aud-320x240-2s.h264', what: 'x264 ultrafast (Constrained Baseline), 50 frames, an access unit delimiter before each', args: [...pattern('320x240', ':duration=2'), '-pix_fmt', 'yuv420p', '-g', '25', '-c:v', 'libx264', '-preset', 'ultrafast', '-bf', '0', '-bsf:v', 'h264_metadata=aud=insert', '-f', 'h264'] },
  { file: 'h264-zerolatency-320x240-3f.h264', what: 'x264 veryfast zerolatency, 3 frames (an SPS that declares no reordering)', args: [...pattern('320x240'), '-frames:v', '3', '-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-preset', 'veryfast', '-tune', 'zerolatency', '-f', 'h264'] },
  { file: 'h265-320x240-1s.hevc', what: 'x265 (default preset), 25 frames, one keyframe, no B-frames', args: [...pattern('320x240'), '-t', '1', '-c:v', 'libx265', '-x265-params', 'log-level=error:keyint=25:bframes=0', '-pix_fmt', 'yuv420p', '-f', 'hevc'] },
  { file: 'h265-aud-320x240-2s.hevc', what: 'x265 ultrafast zerolatency, 50 frames, a keyframe a second, an access unit delimiter before each', args: [...pattern('320x240', ':duration=2'), '-pix_fmt', 'yuv420p', '-g', '25', '-c:v', 'libx265', '-preset', 'ultrafast', '-tune', 'zerolatency', ...x265Quiet, '-bsf:v', 'hevc_metadata=aud=insert', '-f', 'hevc'] },
  // With B-frames, as a pushed MPEG-TS brings them (decode order, presentation times)
  { file: 'h264-bframes-320x240-2s.mpegts', what: 'x264 veryfast -bf 2 (B-frames, b-pyramid) in MPEG-TS, video only', args: [...pattern('320x240', ':duration=2'), '-c:v', 'libx264', '-preset', 'veryfast', '-bf', '2', '-g', '25', '-pix_fmt', 'yuv420p', '-f', 'mpegts'] },
  { file: 'h265-bframes-320x240-2s.mpegts', what: 'x265 veryfast -bf 2 in MPEG-TS, video only', args: [...pattern('320x240', ':duration=2'), '-c:v', 'libx265', ...x265Quiet, '-preset', 'veryfast', '-bf', '2', '-g', '25', '-pix_fmt', 'yuv420p', '-f', 'mpegts'] },
  // Containers with video and audio
  ...['flv', 'mpegts'].map((format) => ({
    file: `h264-aac-320x240-2s.${format}`,
    what: `${format === 'flv' ? 'FLV' : 'MPEG-TS'}: x264 ultrafast (CRF 30) 25 fps and 44.1 kHz mono AAC 64 kb/s`,
    args: [...pattern('320x240', ':duration=2'), ...sine('frequency=440:sample_rate=44100:duration=2'), '-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '30', '-g', '25', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-b:a', '64k', '-f', format],
  })),
  { file: 'h265-aac-320x240-1s.mpegts', what: 'MPEG-TS: x265 ultrafast 25 fps and 44.1 kHz mono AAC 64 kb/s', args: [...pattern('320x240', ':duration=1'), ...sine('frequency=440:sample_rate=44100:duration=1'), '-c:v', 'libx265', '-preset', 'ultrafast', '-g', '25', '-pix_fmt', 'yuv420p', ...x265Quiet, '-c:a', 'aac', '-b:a', '64k', '-f', 'mpegts'] },
  { file: 'jpeg-320x240-10f.mpjpeg', what: "10 JPEGs in ffmpeg's multipart MJPEG (parts with Content-Length)", args: [...pattern('320x240'), '-frames:v', '10', '-q:v', '31', '-f', 'mpjpeg'] },
  { file: 'jpeg-320x240-10f.mjpeg', what: '10 JPEGs one after the other, no framing', args: [...pattern('320x240'), '-frames:v', '10', '-q:v', '31', '-f', 'mjpeg'] },
  // Single JPEGs as RTP JPEG (RFC 2435) meets them
  { file: 'yuvj420p.jpg', what: "JPEG 4:2:0 with ffmpeg's own (optimal) Huffman tables", args: jpeg(['-pix_fmt', 'yuvj420p']) },
  { file: 'yuvj420p-q3.jpg', what: 'the same at -q:v 3', args: jpeg(['-pix_fmt', 'yuvj420p', '-q:v', '3']) },
  { file: 'yuvj420p-std.jpg', what: 'JPEG 4:2:0 with the standard (Annex K) Huffman tables', args: jpeg(['-pix_fmt', 'yuvj420p', '-huffman', 'default']) },
  { file: 'yuvj420p-slices4.jpg', what: 'JPEG 4:2:0, optimal tables, 4 slices (restart markers)', args: jpeg(['-pix_fmt', 'yuvj420p', '-threads', '4', '-slices', '4']) },
  { file: 'yuvj420p-std-slices4-q3.jpg', what: 'JPEG 4:2:0, standard tables, 4 slices (restart markers), -q:v 3', args: jpeg(['-pix_fmt', 'yuvj420p', '-huffman', 'default', '-threads', '4', '-slices', '4', '-q:v', '3']) },
  { file: 'yuvj422p-std-q3.jpg', what: 'JPEG 4:2:2, standard tables, -q:v 3', args: jpeg(['-pix_fmt', 'yuvj422p', '-huffman', 'default', '-q:v', '3']) },
  { file: 'yuvj422p-slices4-q3.jpg', what: "JPEG 4:2:2 in ffmpeg's block order (Y 2x2, chroma 1x2), optimal tables, 4 slices, -q:v 3", args: jpeg(['-pix_fmt', 'yuvj422p', '-threads', '4', '-slices', '4', '-q:v', '3']) },
  { file: 'yuvj444p.jpg', what: 'JPEG 4:4:4 (RTP JPEG cannot carry it)', args: jpeg(['-pix_fmt', 'yuvj444p']) },
  { file: 'yuvj420p-2048x64.jpg', what: 'JPEG 2048x64 (wider than RTP JPEG can say)', args: jpeg(['-pix_fmt', 'yuvj420p'], '2048x64') },
  // Audio
  { file: 'aac-44100-mono-2s.aac', what: 'ADTS: AAC-LC 44.1 kHz mono 64 kb/s', args: [...sine('frequency=440:sample_rate=44100:duration=2'), '-c:a', 'aac', '-b:a', '64k', '-f', 'adts'] },
  { file: 'aac-48000-stereo-1s.aac', what: 'ADTS: AAC-LC 48 kHz stereo', args: [...sine('frequency=440:sample_rate=48000:duration=1'), '-ac', '2', '-c:a', 'aac', '-f', 'adts'] },
  { file: 'opus-48000-2s.opus', what: 'Ogg Opus 48 kHz 32 kb/s', args: [...sine('frequency=440:sample_rate=48000:duration=2'), '-c:a', 'libopus', '-b:a', '32k', '-f', 'opus'] },
  { file: 'alaw-8000-2s.alaw', what: 'raw G.711 A-law 8 kHz mono', args: [...sine('frequency=300:sample_rate=8000:duration=2'), '-f', 'alaw'] },
  { file: 'alaw-8000-2s.s16le', what: "ffmpeg's decoding of alaw-8000-2s.alaw: 16-bit little-endian PCM", args: [...g711Input('alaw', 8000, 'alaw-8000-2s.alaw'), '-f', 's16le'] },
  { file: 'ulaw-16000-0.5s.ulaw', what: 'raw G.711 µ-law 16 kHz mono: a loud tone and a quiet sweep, then noise (every segment of the law used)', args: ['-f', 'lavfi', '-i', `aevalsrc=${VOICE}:s=16000:d=0.5`, '-f', 'mulaw'] },
  { file: 'ulaw-16000-0.5s.s16le', what: "ffmpeg's decoding of ulaw-16000-0.5s.ulaw: 16-bit little-endian PCM", args: [...g711Input('mulaw', 16000, 'ulaw-16000-0.5s.ulaw'), '-f', 's16le'] },
  { file: 's16le-16000-1s.wav', what: 'WAV: 16-bit PCM 16 kHz mono', args: [...sine('frequency=440:sample_rate=16000:duration=1'), '-c:a', 'pcm_s16le', '-f', 'wav'] },
  { file: 's16be-16000-1s.pcm', what: 'the same sound as raw big-endian 16-bit PCM', args: [...sine('frequency=440:sample_rate=16000:duration=1'), '-c:a', 'pcm_s16be', '-f', 's16be'] },
  { file: 'alaw-8000-0.5s.wav', what: 'WAV: G.711 A-law 8 kHz', args: [...sine('sample_rate=8000:duration=0.5'), '-c:a', 'pcm_alaw', '-f', 'wav'] },
  { file: 'f32le-8000-0.1s.wav', what: 'WAV: 32-bit float (format 3), which the WAV demuxer refuses', args: [...sine('sample_rate=8000:duration=0.1'), '-c:a', 'pcm_f32le', '-f', 'wav'] },
  // What ffmpeg sends as RTP
  { file: 'aac-rtp-44100-mono-1s.rtp', what: "ffmpeg's RTP AAC (MPEG4-GENERIC) of 1 s at 44.1 kHz mono; its SDP in aac-rtp-44100-mono-1s.sdp", sdp: 'aac-rtp-44100-mono-1s.sdp', args: [...sine('sample_rate=44100'), '-t', '1', '-c:a', 'aac', '-ac', '1', '-f', 'rtp'] },
  { file: 'h264-rtp-320x240-1s.rtp', what: "ffmpeg's RTP H.264 (payload type 96, packets of at most 1200 bytes), sent in real time", rtp: true, args: ['-re', ...pattern('320x240'), '-t', '1', '-c:v', 'libx264', '-g', '25', '-bf', '0', '-pix_fmt', 'yuv420p', '-f', 'rtp', '-payload_type', '96'], urlOptions: '?pkt_size=1200' },
  { file: 'jpeg-rtp-320x240-5f.rtp', what: "ffmpeg's RTP JPEG (RFC 2435) of 5 pictures 4:2:0 with the standard tables", rtp: true, args: [...pattern('320x240'), '-frames:v', '5', '-c:v', 'mjpeg', '-pix_fmt', 'yuvj420p', '-huffman', 'default', '-f', 'rtp'] },
  // Small samples the demuxers' fuzz tests damage
  ...[
    ['flv', 'flv', ['-c:v', 'libx264', '-preset', 'ultrafast', '-g', '5', '-c:a', 'aac', '-b:a', '24k']],
    ['mpegts', 'mpegts', ['-c:v', 'libx264', '-preset', 'ultrafast', '-g', '5', '-c:a', 'aac', '-b:a', '24k']],
    ['mpjpeg', 'mpjpeg', ['-map', '0:v', '-c:v', 'mjpeg', '-q:v', '20']],
    ['h264', 'h264', ['-map', '0:v', '-c:v', 'libx264', '-preset', 'ultrafast', '-g', '5']],
  ].map(([ext, format, codecs]) => ({
    file: `fuzz-96x64-1s.${ext}`,
    what: `fuzz sample: ${format}, 96x64 at 10 fps${codecs.includes('aac') ? ' with AAC' : ''}`,
    args: ['-f', 'lavfi', '-i', 'testsrc=size=96x64:rate=10:duration=1', '-f', 'lavfi', '-i', 'sine=duration=1', ...codecs, '-f', format],
  })),
];

const quote = (arg) => (/^[\w=:./,@%+-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`);

/** The command as it is run, for the README (RTP: the port is the one the script listened on). */
function commandLine(fixture) {
  const args = [...ffmpegBase, ...fixture.args];
  if (fixture.sdp) args.push('-sdp_file', fixture.sdp);
  const output = fixture.sdp || fixture.rtp ? `rtp://127.0.0.1:PORT${fixture.urlOptions ?? ''}` : `- > ${fixture.file}`;
  return ['ffmpeg', ...args.map(quote), output].join(' ');
}

function run(args) {
  return new Promise((resolve, reject) => {
    const child = spawn('ffmpeg', [...ffmpegBase, ...args], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    const out = [];
    let errors = '';
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => (errors += d));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 && !errors ? resolve(Buffer.concat(out)) : reject(new Error(`ffmpeg ${args.join(' ')}: ${code} ${errors}`)),
    );
  });
}

/** Each datagram as it came: a 2-byte big-endian length, then the packet. */
async function captureRtp(fixture) {
  const socket = createSocket('udp4');
  await new Promise((resolve) => socket.bind(0, '127.0.0.1', resolve));
  socket.setRecvBufferSize(8 << 20);
  const packets = [];
  let last = Date.now();
  socket.on('message', (msg) => {
    const length = Buffer.alloc(2);
    length.writeUInt16BE(msg.length);
    packets.push(length, msg);
    last = Date.now();
  });
  const args = [
    ...fixture.args,
    ...(fixture.sdp ? ['-sdp_file', fixture.sdp] : []),
    `rtp://127.0.0.1:${socket.address().port}${fixture.urlOptions ?? ''}`,
  ];
  await run(args);
  // The last datagrams may still be on their way through the socket: wait until it is quiet.
  while (Date.now() - last < 300) await new Promise((resolve) => setTimeout(resolve, 50));
  socket.close();
  return Buffer.concat(packets);
}

// With file names, only those are made again (the others stay as they are); else all of them.
const only = process.argv.slice(2);
const unknown = only.filter((file) => !FIXTURES.some((f) => f.file === file));
if (unknown.length > 0) throw new Error(`no such fixture: ${unknown.join(', ')}`);
if (only.length === 0) rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });
for (const fixture of FIXTURES.filter((f) => only.length === 0 || only.includes(f.file))) {
  const bytes = fixture.sdp || fixture.rtp ? await captureRtp(fixture) : await run([...fixture.args, '-']);
  writeFileSync(join(dir, fixture.file), bytes);
  console.log(`${fixture.file}: ${bytes.length} bytes`);
}

const version = (await run(['-version']))
  .toString()
  .split('\n')[0]
  .replace(/ Copyright.*/, '');
const size = (file) => statSync(join(dir, file)).size;
const files = readdirSync(dir);
const total = files.reduce((sum, file) => sum + size(file), 0);
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
const entries = FIXTURES.flatMap((f) => [
  `- \`${f.file}\` (${kb(size(f.file))}): ${f.what}.`,
  ...(f.sdp ? [`- \`${f.sdp}\` (${kb(size(f.sdp))}): the SDP ffmpeg wrote for it.`] : []),
  `  \`${commandLine(f)}\``,
]);
writeFileSync(
  join(dir, 'README.md'),
  `# Media fixtures

Media that the codec and container tests read, so that the unit tier starts no encoder:
recorded once (${version}), checked in, and made again with
\`node scripts/make-media-fixtures.mjs\` (which writes this file too; given file names, it
makes only those). Test code reads them through \`src-main/relay/test/media-fixtures.ts\`.

Each file comes with what it is, its size and the command that made it (\`ffmpeg\` writes the
file on its standard output). The \`.rtp\` files are what ffmpeg sent to a UDP port, one
datagram after the other, each behind its length as 2 bytes big-endian. ${files.length} files, ${kb(total)} in all.

${entries.join('\n')}
`,
);
console.log(`${files.length} files, ${kb(total)}`);
