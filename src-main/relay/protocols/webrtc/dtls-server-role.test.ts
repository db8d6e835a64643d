import { afterEach, describe, expect, it } from 'vitest';
import type { RTCPeerConnection } from 'werift';
import { answerAsDtlsServer, offerLeavesDtlsRole } from './dtls-server-role';
import { VIEWER_OFFER } from './fuzz-offers';
import { werift } from './werift-module';

const setups = (sdp: string) => [...sdp.matchAll(/^a=setup:(\S+)/gm)].map((match) => match[1]);

describe('offerLeavesDtlsRole', () => {
  it('is true when every media says actpass (browsers, werift)', () => {
    expect(offerLeavesDtlsRole(VIEWER_OFFER)).toBe(true);
  });

  it('is false when the offer takes a role on any media, or names none', () => {
    expect(offerLeavesDtlsRole(VIEWER_OFFER.replace('a=setup:actpass', 'a=setup:active'))).toBe(false);
    expect(offerLeavesDtlsRole(VIEWER_OFFER.replaceAll('a=setup:actpass', 'a=setup:passive'))).toBe(false);
    expect(offerLeavesDtlsRole(VIEWER_OFFER.replaceAll('a=setup:actpass\r\n', ''))).toBe(false);
  });
});

describe('answerAsDtlsServer', () => {
  const opened: RTCPeerConnection[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((pc) => pc.close()));
  });

  /** werift's answer to `offer`, made as the viewer session makes it. */
  async function answer(offer: string): Promise<string> {
    const pc = new (werift().RTCPeerConnection)();
    opened.push(pc);
    await pc.setRemoteDescription({ type: 'offer', sdp: offer });
    answerAsDtlsServer(pc, offer);
    await pc.setLocalDescription(await pc.createAnswer());
    return pc.localDescription!.sdp;
  }

  it('answers an actpass offer as DTLS server on every media', async () => {
    expect(setups(await answer(VIEWER_OFFER))).toEqual(['passive', 'passive']);
  });

  it('leaves an offer that took the server role to werift, which answers as client', async () => {
    expect(setups(await answer(VIEWER_OFFER.replaceAll('a=setup:actpass', 'a=setup:passive')))).toEqual(['active', 'active']);
  });
});
