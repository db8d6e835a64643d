import { describe, expect, it } from 'vitest';
import { safariRedirect } from './mp4-query';

const agents = {
  safariMac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
  safariIphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  chromeIos:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/126.0.6478.54 Mobile/15E148 Safari/604.1',
  chrome: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36',
  headlessChromium: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36',
  chromiumToken:
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Ubuntu Chromium/80.0.3987.87 Chrome/80.0.3987.87 Safari/537.36',
  edge: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0',
  androidWebView:
    'Mozilla/5.0 (Linux; Android 14; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/126.0.6478.71 Mobile Safari/537.36',
  electron:
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) relay-console/1.0.0 Chrome/138.0.7204.97 Electron/37.2.0 Safari/537.36',
  firefox: 'Mozilla/5.0 (X11; Linux x86_64; rv:153.0) Gecko/20100101 Firefox/153.0',
};

describe('stream.mp4 sends Safari to HLS', () => {
  const query = new URLSearchParams('src=door&video=h264');

  it('sends Safari and every WebKit browser of iOS to stream.m3u8 with fMP4, keeping the query', () => {
    for (const ua of [agents.safariMac, agents.safariIphone, agents.chromeIos]) {
      expect(safariRedirect(ua, query), ua).toBe('stream.m3u8?src=door&video=h264&mp4');
    }
  });

  it('keeps Chromium in every disguise on MP4, headless Chromium (HeadlessChrome/) included, and Firefox', () => {
    for (const ua of [
      agents.chrome,
      agents.headlessChromium,
      agents.chromiumToken,
      agents.edge,
      agents.androidWebView,
      agents.electron,
      agents.firefox,
      undefined,
    ]) {
      expect(safariRedirect(ua, query), ua).toBeUndefined();
    }
  });

  it('leaves a download (duration) to Safari as MP4', () => {
    expect(safariRedirect(agents.safariMac, new URLSearchParams('src=door&duration=5'))).toBeUndefined();
  });
});
