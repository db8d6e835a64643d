import { execFile } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { fixture } from '@main/relay/test/media-fixtures';
import { demuxAll } from '../test-media';
import { createMjpegDemuxer } from './mjpeg-demuxer';

async function jpegSize(picture: Uint8Array): Promise<string> {
  const child = execFile('ffprobe', ['-v', 'error', '-show_entries', 'stream=width,height', '-of', 'csv=p=0', '-i', 'pipe:0']);
  child.stdin!.end(picture);
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  await new Promise((resolve) => child.on('close', resolve));
  return out.trim();
}

// How the demuxer splits the bodies is checked in mjpeg-demuxer.test.ts.
describe('MJPEG demuxer, its pictures read by ffprobe', () => {
  it('gives out pictures of ffmpeg multipart MJPEG and plain JPEG runs that ffprobe reads at 320x240', async () => {
    for (const format of ['mpjpeg', 'mjpeg'] as const) {
      const { frames } = demuxAll((sink) => createMjpegDemuxer(sink), fixture(`jpeg-320x240-10f.${format}`));
      expect(await jpegSize(frames[3]!.frame.data)).toBe('320,240');
    }
  });
});
