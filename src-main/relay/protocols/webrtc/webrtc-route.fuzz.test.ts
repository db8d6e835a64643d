import type { ChildProcess } from 'node:child_process';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzCases, fuzzTimeout } from '@main/test-support/fuzz-budget';
import { publishTestPattern, startRelay, waitForMedia, type RelayUnderTest } from '../../test/relay-test-kit';
import { mutatedLines, PUBLISHER_OFFER, TRICKLE, VIEWER_OFFER } from './fuzz-offers';

// The same damaged offers as offer.fuzz.test.ts, but POSTed to a real relay with a live camera,
// so they reach werift's own SDP parser and ICE agent: every answer is a 201/200 or a 4xx,
// never a 500, and the relay keeps serving. Each case opens a real session: fewer cases.
let relay: RelayUnderTest;
let camera: ChildProcess;

beforeAll(async () => {
  relay = await startRelay('  cam:\n  stage:\n');
  camera = publishTestPattern(relay.rtspUrl('cam'), 120);
  await waitForMedia(relay, 'cam', 20_000);
}, 40_000);
afterAll(async () => {
  camera?.kill('SIGKILL');
  await relay?.stop();
});

async function post(path: string, type: string, body: string): Promise<{ status: number; location: string | null; text: string }> {
  const response = await fetch(`${relay.api}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': type },
    body,
    signal: AbortSignal.timeout(15_000),
  });
  return { status: response.status, location: response.headers.get('location'), text: await response.text() };
}

const end = async (location: string | null) => {
  if (location) await fetch(new URL(location, `${relay.api}/api/`), { method: 'DELETE' });
};

describe('fuzz: /api/webrtc with damaged offers and trickles', () => {
  it(
    'a damaged WHEP or WHIP offer gets an answer or a 4xx that says why, never a 500',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(
            mutatedLines(VIEWER_OFFER).map((sdp) => ['src=cam', sdp] as const),
            mutatedLines(PUBLISHER_OFFER).map((sdp) => ['dst=stage', sdp] as const),
          ),
          async ([target, sdp]) => {
            const answer = await post(`/api/webrtc?${target}`, 'application/sdp', sdp);
            await end(answer.location);
            expect(answer.status, answer.text).toBeLessThan(500);
            if (answer.status >= 400) expect(answer.text.trim().length).toBeGreaterThan(10);
          },
        ),
        fuzzCases(150),
      );
      // Still serving: an intact offer is answered.
      const intact = await post('/api/webrtc?src=cam', 'application/sdp', VIEWER_OFFER);
      expect(intact.status).toBe(201);
      await end(intact.location);
    },
    fuzzTimeout() + 120_000,
  );

  it(
    'damaged trickle fragments on a live session get 204 or a 4xx (501 for an ICE restart), never a 500',
    async () => {
      const session = await post('/api/webrtc?src=cam', 'application/sdp', VIEWER_OFFER);
      expect(session.status).toBe(201);
      try {
        const resource = new URL(session.location!, `${relay.api}/api/`);
        await fc.assert(
          fc.asyncProperty(mutatedLines(TRICKLE), async (fragment) => {
            const patched = await fetch(resource, {
              method: 'PATCH',
              headers: { 'Content-Type': 'application/trickle-ice-sdpfrag' },
              body: fragment,
              signal: AbortSignal.timeout(15_000),
            });
            const text = await patched.text();
            // Another ufrag asks for an ICE restart, which the relay answers with a deliberate 501.
            if (patched.status === 501) expect(text).toContain('ICE restarts are not supported');
            else expect(patched.status, text).toBeLessThan(500);
          }),
          fuzzCases(300),
        );
      } finally {
        await end(session.location);
      }
    },
    fuzzTimeout() + 60_000,
  );
});
