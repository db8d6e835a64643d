import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openFirefox, type FirefoxTab } from '../../test/firefox-kit';
import { startRelay, type RelayUnderTest } from '../../test/relay-test-kit';
import { playedPast, readVideo } from '../../test/video-playback';
import { startGstCamera, type GstCamera } from '../rtsp/test-support/gst-camera';

/** Runs in the page: a muted, autoplaying <video> of `url` in place of the page's content. */
function playInPage(url: string): true {
  const video = document.createElement('video');
  video.muted = true;
  video.autoplay = true;
  video.src = url;
  document.body.replaceChildren(video);
  return true;
}

/**
 * stream.mp4 played by Firefox (Debian's ESR) as by Chromium (stream-mp4-chromium): a <video src>
 * on the relay's origin and the URL opened in a tab (Firefox's video document). Firefox reads
 * the fragmented MP4 with its own demuxer, not FFmpeg's as Chromium does.
 */
describe('stream.mp4 in Firefox, progressive playback', () => {
  let camera: GstCamera;
  let relay: RelayUnderTest;
  let firefox: FirefoxTab;

  beforeAll(async () => {
    camera = await startGstCamera({ size: '320x240' });
    relay = await startRelay(
      `  cam: ${camera.url}\n  pattern: ffmpeg:virtual?video=testsrc&size=320x240&fps=25&audio#video=h264#audio=aac\n`,
    );
    firefox = await openFirefox();
  }, 60_000);

  afterAll(async () => {
    await firefox?.close();
    await relay?.stop();
    await camera?.stop();
  });

  it("plays a GStreamer camera's stream.mp4 in a <video> of the relay's origin: time passes 2 s at 320x240, no error", async () => {
    await firefox.navigate(`${relay.api}/api`);
    await firefox.evaluate(playInPage, `${relay.api}/api/stream.mp4?src=cam`);
    expect(await playedPast(() => firefox.evaluate(readVideo), 2)).toMatchObject({ size: '320x240', error: null });
  }, 60_000);

  it('plays H.264 with AAC, with its sound track', async () => {
    await firefox.navigate(`${relay.api}/api`);
    await firefox.evaluate(playInPage, `${relay.api}/api/stream.mp4?src=pattern`);
    expect(await playedPast(() => firefox.evaluate(readVideo), 2)).toMatchObject({ size: '320x240', audio: 1, error: null });
  }, 60_000);

  it("plays when the URL is opened in a tab: the video of Firefox's video document passes 2 s at 320x240", async () => {
    await firefox.navigate(`${relay.api}/api/stream.mp4?src=cam`, 'none');
    expect(await playedPast(() => firefox.evaluate(readVideo), 2)).toMatchObject({ size: '320x240', error: null });
  }, 60_000);
});
