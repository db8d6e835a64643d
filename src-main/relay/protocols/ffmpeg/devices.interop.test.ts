import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probe, startRelay, type RelayUnderTest } from '../../test/relay-test-kit';
import { deviceInputArgs } from './device-input';
import { parseSourcesListing, parseV4l2Formats } from './devices';

// ffmpeg's own device listings. This machine has no camera, but Debian's ffmpeg lists ALSA's
// `null` capture device (silence at the real rate), so the endpoint and a device source are
// exercised end to end with it; video4linux2 listings are parsed from ffmpeg's real output.
const V4L2_LISTING = `[video4linux2,v4l2 @ 0x55d1c3a0b2c0] Compressed:       mjpeg :          Motion-JPEG : 640x480 1280x720 1920x1080
[video4linux2,v4l2 @ 0x55d1c3a0b2c0] Raw       :     yuyv422 :           YUYV 4:2:2 : 640x480 1280x720
/dev/video0: Immediate exit requested
`;

describe('capture device listings', () => {
  it('reads ffmpeg -sources and -list_formats output', () => {
    expect(
      parseSourcesListing(
        'Auto-detected sources for alsa:\n* default [Default ALSA Output] (audio)\n  hw:CARD=C920,DEV=0 [HD Pro Webcam C920, USB Audio] (audio)\n',
      ),
    ).toEqual([
      { name: 'default', description: 'Default ALSA Output' },
      { name: 'hw:CARD=C920,DEV=0', description: 'HD Pro Webcam C920, USB Audio' },
    ]);
    expect(parseV4l2Formats('/dev/video0', V4L2_LISTING)).toEqual([
      {
        name: 'Motion-JPEG',
        info: '640x480 1280x720 1920x1080',
        url: 'ffmpeg:device?video=/dev/video0&input_format=mjpeg&video_size=640x480',
      },
      {
        name: 'YUYV 4:2:2',
        info: '640x480 1280x720',
        url: 'ffmpeg:device?video=/dev/video0&input_format=yuyv422&video_size=640x480#video=h264#hardware',
      },
    ]);
  });

  it('turns a device source into capture arguments, refusing values ffmpeg would read as options', () => {
    expect(deviceInputArgs('device?video=0&input_format=mjpeg&resolution=1280x720')).toEqual([
      '-f',
      'v4l2',
      '-video_size',
      '1280x720',
      '-input_format',
      'mjpeg',
      '-i',
      '/dev/video0',
    ]);
    expect(deviceInputArgs('device?audio=hw:1,0&channels=1')).toEqual(['-f', 'alsa', '-channels', '1', '-i', 'hw:1,0']);
    expect(() => deviceInputArgs('device?video=-i /etc/passwd')).toThrow('is not a device setting');
    expect(() => deviceInputArgs('device?foo=1')).toThrow('needs video= or audio=');
  });
});

describe('GET /api/ffmpeg/devices', () => {
  let relay: RelayUnderTest;
  beforeAll(async () => {
    relay = await startRelay('  mic: ffmpeg:device?audio=null&channels=1&sample_rate=16000#audio=opus\n');
  }, 30_000);
  afterAll(() => relay.stop());

  it('lists the ALSA capture devices ffmpeg finds; the listed source plays from the config file and is refused through the API', async () => {
    const response = await fetch(`${relay.api}/api/ffmpeg/devices`);
    expect(response.status).toBe(200);
    const { sources } = (await response.json()) as { sources: Array<{ name: string; url: string; info: string }> };
    expect(sources).toContainEqual({
      name: 'ALSA null',
      url: 'ffmpeg:device?audio=null&channels=1&sample_rate=16000#audio=opus',
      info: expect.stringContaining('zero samples'),
    });

    expect(await probe(relay.rtspUrl('mic'))).toEqual([expect.objectContaining({ codec_type: 'audio', codec_name: 'opus' })]);

    const put = await fetch(`${relay.api}/api/streams?name=mic2&src=${encodeURIComponent('ffmpeg:device?audio=null')}`, { method: 'PUT' });
    expect(put.status).toBe(400);
    expect(await put.text()).toContain('capture device of this machine');
  }, 30_000);
});
