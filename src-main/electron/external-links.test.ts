import { describe, expect, it } from 'vitest';
import { mayOpenExternally } from './external-links';

const api = 'http://127.0.0.1:1984';

describe('external links from the desktop window', () => {
  it('opens https pages of the managed services and the console API address', () => {
    expect(mayOpenExternally('https://portal.qiniu.com/kodo/bucket', api)).toBe(true);
    expect(mayOpenExternally('https://learn.microsoft.com/en-us/graph/api/overview', api)).toBe(true);
    expect(mayOpenExternally('http://127.0.0.1:1984/api/stream.mp4?src=demo', api)).toBe(true);
  });

  it('refuses any other https site, other schemes, look-alike hosts and credentials', () => {
    for (const url of [
      'https://evil.example/phish',
      'https://portal.qiniu.com.evil.example/',
      'https://portal.qiniu.com:8443/',
      'http://portal.qiniu.com/',
      'https://user:pass@portal.qiniu.com/',
      'http://127.0.0.1:1985/',
      'file:///etc/passwd',
      'smb://attacker/share',
      'ms-settings:privacy',
      'javascript:alert(1)',
      'not a url',
    ]) {
      expect(mayOpenExternally(url, api), url).toBe(false);
    }
  });
});
