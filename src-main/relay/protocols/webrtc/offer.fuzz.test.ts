import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HttpError } from '@main/platform/http/http-error';
import { fuzzCases, fuzzTimeout } from '@main/test-support/fuzz-budget';
import { damagedSample } from '@main/test-support/fuzz-inputs';
import { mutatedLines, PUBLISHER_OFFER, TRICKLE, VIEWER_OFFER } from './fuzz-offers';
import { iceUfrag } from './ice/answer-candidates';
import { describeOffer, viewerRequests } from './offer-codecs';
import { parseOffer } from './peer-helpers';
import { parseTrickleFragment } from './trickle-sdpfrag';

// The WHEP/WHIP offer is the first thing a stranger's bytes reach on /api/webrtc: whatever it
// is, the relay answers a usable offer or a 400 that says why, never a 500 or a crash.

const offers = fc.oneof(
  mutatedLines(VIEWER_OFFER),
  mutatedLines(PUBLISHER_OFFER),
  damagedSample([Buffer.from(VIEWER_OFFER), Buffer.from(PUBLISHER_OFFER)], 16).map((b) => b.toString('latin1')),
  fc.string({ maxLength: 400 }),
);

describe('fuzz: WHIP/WHEP offers', () => {
  it(
    'an offer is read into medias or refused with a 400; what the relay says of it never throws',
    () => {
      fc.assert(
        fc.property(offers, (offer) => {
          for (const side of ['sendonly', 'recvonly'] as const) {
            let medias;
            try {
              medias = parseOffer(offer, side);
            } catch (error) {
              if (error instanceof HttpError && error.status === 400) continue;
              throw error;
            }
            viewerRequests(medias);
            expect(typeof describeOffer(medias)).toBe('string');
          }
          const ufrag = iceUfrag(offer);
          expect(ufrag === undefined || typeof ufrag === 'string').toBe(true);
        }),
        fuzzCases(2_000),
      );
    },
    fuzzTimeout(),
  );

  it(
    'a trickled fragment (PATCH) is read into candidates whatever it holds',
    () => {
      fc.assert(
        fc.property(fc.oneof(mutatedLines(TRICKLE), fc.string({ maxLength: 300 })), (text) => {
          const fragment = parseTrickleFragment(text);
          expect(fragment.candidates.every((c) => typeof c.candidate === 'string' && c.candidate.startsWith('candidate:'))).toBe(true);
        }),
        fuzzCases(2_000),
      );
    },
    fuzzTimeout(),
  );
});
