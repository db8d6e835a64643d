/** What a WHIP/WHEP client trickles in a PATCH (`application/trickle-ice-sdpfrag`, RFC 8840). */
export interface TrickleFragment {
  /** The ufrag the candidates belong to; a new one (with a new password) asks for an ICE restart. */
  ufrag?: string;
  password?: string;
  candidates: Array<{ candidate: string; mid?: string }>;
  ended: boolean;
}

/** Reads an SDP fragment: session-level ICE credentials, then media sections with their candidates. */
export function parseTrickleFragment(text: string): TrickleFragment {
  const fragment: TrickleFragment = { candidates: [], ended: false };
  let mid: string | undefined;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line.startsWith('m=')) mid = undefined;
    else if (line.startsWith('a=mid:')) mid = line.slice(6);
    else if (line.startsWith('a=ice-ufrag:')) fragment.ufrag = line.slice(12);
    else if (line.startsWith('a=ice-pwd:')) fragment.password = line.slice(10);
    else if (line.startsWith('a=candidate:')) fragment.candidates.push({ candidate: line.slice(2), ...(mid !== undefined ? { mid } : {}) });
    else if (line === 'a=end-of-candidates') fragment.ended = true;
  }
  return fragment;
}
