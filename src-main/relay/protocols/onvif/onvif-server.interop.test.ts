import type { ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probe, publishTestPattern, startRelay, waitForMedia, type RelayUnderTest } from '../../test/relay-test-kit';

// The ONVIF server checked with an ONVIF client library from npm (agsh/onvif), as an NVR or
// Home Assistant would use it: connect, list the profiles, get the stream and snapshot URIs,
// and play what it was given.
interface OnvifProfile {
  $: { token: string };
  name: string;
  videoEncoderConfiguration: { encoding: string; resolution: { width: number; height: number } };
}
interface OnvifCam {
  profiles: OnvifProfile[];
  videoSources: unknown;
  getDeviceInformation(cb: (err: Error | null, info: Record<string, string>) => void): void;
  getStreamUri(options: { protocol: string; profileToken: string }, cb: (err: Error | null, uri: { uri: string }) => void): void;
  getSnapshotUri(options: { profileToken: string }, cb: (err: Error | null, uri: { uri: string }) => void): void;
  getSystemDateAndTime(cb: (err: Error | null, date: Date) => void): void;
}
const { Cam } = createRequire(import.meta.url)('onvif') as {
  Cam: new (options: Record<string, unknown>, cb: (err: Error | null) => void) => OnvifCam;
};

let relay: RelayUnderTest;
let camera: ChildProcess;
let cam: OnvifCam;
const call = <T>(run: (cb: (err: Error | null, value: T) => void) => void) =>
  new Promise<T>((resolve, reject) => run((err, value) => (err ? reject(err) : resolve(value))));

beforeAll(async () => {
  relay = await startRelay('  garden:\n  porch:\n');
  camera = publishTestPattern(relay.rtspUrl('garden'), 60);
  await waitForMedia(relay, 'garden');
  const port = Number(new URL(relay.api).port);
  cam = await new Promise<OnvifCam>((resolve, reject) => {
    const made: OnvifCam = new Cam({ hostname: '127.0.0.1', port, timeout: 10_000 }, (err) => (err ? reject(err) : resolve(made)));
  });
}, 30_000);
afterAll(async () => {
  camera.kill('SIGKILL');
  await relay.stop();
});

describe('ONVIF server', () => {
  it('lists one profile per stream, with the codec and size of a connected one', () => {
    expect(cam.profiles.map((p) => p.$.token)).toEqual(['garden', 'porch']);
    const garden = cam.profiles[0]!;
    expect(garden.name).toBe('garden');
    expect(garden.videoEncoderConfiguration).toMatchObject({ encoding: 'H264', resolution: { width: 320, height: 240 } });
  });

  it('gives a stream URI on the relay RTSP server that plays, and a snapshot URI that answers a JPEG', async () => {
    const stream = await call<{ uri: string }>((cb) => cam.getStreamUri({ protocol: 'RTSP', profileToken: 'garden' }, cb));
    expect(stream.uri).toBe(relay.rtspUrl('garden'));
    const tracks = await probe(stream.uri);
    expect(tracks).toEqual(expect.arrayContaining([expect.objectContaining({ codec_name: 'h264', width: 320, height: 240 })]));
    const snapshot = await call<{ uri: string }>((cb) => cam.getSnapshotUri({ profileToken: 'garden' }, cb));
    expect(snapshot.uri).toBe(`${relay.api}/api/frame.jpeg?src=garden`);
    const jpeg = Buffer.from(await (await fetch(snapshot.uri)).arrayBuffer());
    expect([jpeg[0], jpeg[1]]).toEqual([0xff, 0xd8]);
  });

  it('answers device information and the time; refuses an unknown profile and operation with SOAP faults', async () => {
    const info = await call<Record<string, string>>((cb) => cam.getDeviceInformation(cb));
    expect(info).toMatchObject({ manufacturer: 'Relay Console', model: 'Media relay' });
    const date = await call<Date>((cb) => cam.getSystemDateAndTime(cb));
    expect(Math.abs(date.getTime() - Date.now())).toBeLessThan(5_000);
    await expect(call((cb) => cam.getStreamUri({ protocol: 'RTSP', profileToken: 'nope' }, cb))).rejects.toThrow(
      /no profile with this token/,
    );
    const unknown = await fetch(`${relay.api}/onvif/device_service`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/soap+xml' },
      body: '<s:Envelope xmlns:s="http://www.w3.org/2003/05/soap-envelope"><s:Body><tds:FactoryDefault xmlns:tds="http://www.onvif.org/ver10/device/wsdl"/></s:Body></s:Envelope>',
    });
    expect(unknown.status).toBe(400);
    expect(await unknown.text()).toContain('<s:Value>ter:ActionNotSupported</s:Value>');
    expect((await fetch(`${relay.api}/onvif/device_service`)).status).toBe(405);
  });
});
