import { afterEach, describe, expect, it } from 'vitest';
import { startRelay, type RelayUnderTest } from '../../test/relay-test-kit';
import { startTwoWayCamera, type TwoWayCamera } from './test-support/two-way-camera';

const TAG = 'www.onvif.org/ver20/backchannel';

describe('asking cameras for their backchannel', () => {
  let relay: RelayUnderTest | undefined;
  let camera: TwoWayCamera | undefined;
  afterEach(async () => {
    await relay?.stop();
    await camera?.close();
    relay = camera = undefined;
  });

  const probe = async (name: string) =>
    (
      (await (await fetch(`${relay!.api}/api/streams?src=${name}&video=all&audio=all&microphone`)).json()) as {
        producers: Array<{ medias?: string[] }>;
      }
    ).producers[0]!;

  it('asks on DESCRIBE only: SETUP and PLAY carry no Require header', async () => {
    camera = await startTwoWayCamera();
    relay = await startRelay(`  door: ${camera.url}\n`);
    expect((await probe('door')).medias).toEqual(['audio, recvonly, PCMU', 'audio, sendonly, PCMA, PCMU']);
    expect(camera.describeRequires).toEqual([TAG]);
    expect(camera.laterRequests.filter((r) => r.startsWith('SETUP'))).toEqual(['SETUP', 'SETUP']);
  });

  it('a camera that lists its speaker and then refuses to set it up is pulled without it, and remembered', async () => {
    camera = await startTwoWayCamera({ acceptsPlainDescribe: true, refusesBackchannelSetup: true });
    relay = await startRelay(`  door: ${camera.url}\n`);
    expect((await probe('door')).medias).toEqual(['audio, recvonly, PCMU']);
    expect(camera.describeRequires).toEqual([TAG, '']);
    // The next dial of this camera does not ask again.
    await probe('door');
    expect(camera.describeRequires).toEqual([TAG, '', '']);
  });
});
