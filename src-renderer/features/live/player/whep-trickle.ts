/**
 * An ICE-lite answer (the relay behind its shared WebRTC port) needs none of the browser's
 * candidates: the relay learns the browser's address from its connectivity checks, so the offer
 * can go before gathering ends (in Chromium that wait is over 100 ms of a tile's start).
 */
export const isIceLite = (answer: string): boolean => /^a=ice-lite\s*$/m.test(answer);

/**
 * The candidates of a local description as a WHEP PATCH body (`application/trickle-ice-sdpfrag`,
 * RFC 8840): each media section's mid with its candidates, then the end of candidates, for an
 * answer from a full ICE agent that got an offer sent before gathering ended.
 */
export function candidateFragment(localSdp: string): string {
  const lines: string[] = [];
  for (const raw of localSdp.split(/\r?\n/)) {
    const line = raw.trim();
    if (line.startsWith('a=ice-ufrag:') || line.startsWith('a=ice-pwd:')) {
      if (!lines.includes(line)) lines.push(line);
    } else if (line.startsWith('m=') || line.startsWith('a=mid:') || line.startsWith('a=candidate:')) {
      lines.push(line);
    }
  }
  lines.push('a=end-of-candidates');
  return `${lines.join('\r\n')}\r\n`;
}
