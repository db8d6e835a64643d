import { describe, expect, it } from 'vitest';
import { linkedStream, parseAddRequest, parseOfferForm } from './rtsp-to-webrtc-requests';

const streams = { get: (name: string) => (['door', 'back yard'].includes(name) ? ({} as never) : undefined) };

describe('RTSPtoWebRTC requests', () => {
  it("reads Home Assistant's add request; the name defaults to the path's id", () => {
    expect(parseAddRequest('{"name":"camera.door","channels":{"0":{"name":"ch1","url":"rtsp://10.0.0.2/live"}}}', 'x')).toEqual({
      name: 'camera.door',
      source: 'rtsp://10.0.0.2/live',
    });
    expect(parseAddRequest('{"channels":{"0":{"url":"rtsp://10.0.0.2/live"}}}', 'camera.door')).toEqual({
      name: 'camera.door',
      source: 'rtsp://10.0.0.2/live',
    });
    expect(() => parseAddRequest('{"name":"a"}', 'a')).toThrow('channels."0".url is required');
    expect(() => parseAddRequest('name=a', 'a')).toThrow('the body is not JSON');
  });

  it('knows a URL that points at one of the relay streams, on any host', () => {
    expect(linkedStream('rtsp://127.0.0.1:8554/door', streams)).toBe('door');
    expect(linkedStream('rtsp://relay.local:8554/back%20yard?video', streams)).toBe('back yard');
    expect(linkedStream('door', streams)).toBe('door');
    expect(linkedStream('rtsp://127.0.0.1:8554/garage', streams)).toBeUndefined();
    expect(linkedStream('http://127.0.0.1:1984/door', streams)).toBeUndefined();
    expect(linkedStream('not a url', streams)).toBeUndefined();
  });

  it('takes the base64 offer from a URL-encoded or multipart form', async () => {
    const offer = 'v=0\r\no=- 1 1 IN IP4 127.0.0.1\r\n';
    const data = Buffer.from(offer).toString('base64');
    expect(await parseOfferForm(`data=${encodeURIComponent(data)}`, 'application/x-www-form-urlencoded')).toBe(offer);
    const form = new FormData();
    form.set('data', data);
    const multipart = new Request('http://x/', { method: 'POST', body: form });
    expect(await parseOfferForm(await multipart.text(), multipart.headers.get('content-type')!)).toBe(offer);
    await expect(parseOfferForm('other=1', '')).rejects.toThrow('the form field data is required: the base64 SDP offer');
    await expect(parseOfferForm('data=%%%', '')).rejects.toThrow('not base64');
  });
});
