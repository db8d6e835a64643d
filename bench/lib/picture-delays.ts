/**
 * How long each picture took through a relay, from the moment its last packet went in to the
 * moment a viewer had its last packet: the one delay that means the same for a relay that
 * passes RTP through and for one that repacketizes it. GStreamer's payloader renumbers the
 * packets and stamps pictures anew from their arrival (a random base, then steps of 3600 ± a
 * few hundred ticks at 25 fps), so a picture is matched to the one sent with the nearest
 * timestamp, less an offset this works out from the arrivals themselves.
 *
 * `sent`: the input's picture timestamps, in the order sent, and when each picture's marker
 * packet went in. `arrivals`: a viewer's marker packets as flat pairs of (RTP timestamp,
 * arrival time). Times are milliseconds on one clock; the result is one delay per matched
 * picture. `toleranceTicks`: how far a stamp may be from the matched one (half a picture at
 * 25 fps by default).
 */
export function pictureDelays(
  sent: ReadonlyMap<number, number>,
  arrivals: readonly number[],
  options: { toleranceTicks?: number; searchMs?: number } = {},
): number[] {
  const tolerance = options.toleranceTicks ?? 1800;
  const searchMs = options.searchMs ?? 500;
  if (arrivals.length < 2 || sent.size === 0) return [];
  const pictures = unwrapped(sent);
  const [firstStamp, firstArrival] = [arrivals[0]!, arrivals[1]!];
  // Candidate offsets: the first arrival against every picture sent shortly before it.
  let best: number[] = [];
  let bestMedian = Infinity;
  for (const { raw, at } of pictures) {
    if (at > firstArrival || firstArrival - at > searchMs) continue;
    const delays = matchAll(pictures, arrivals, (firstStamp - raw) >>> 0, tolerance);
    // The true offset gives no picture that arrived before it went in; one a picture off gives
    // most of them (a picture later) or a median a picture's interval longer (a picture earlier).
    const early = delays.filter((d) => d < -0.5).length;
    if (delays.length === 0 || early > delays.length / 100) continue;
    const median = [...delays].sort((a, b) => a - b)[delays.length >> 1]!;
    if (median < bestMedian) [best, bestMedian] = [delays, median];
  }
  return best;
}

interface SentPicture {
  raw: number;
  /** The stamp counted on from the first one, past the 32-bit wrap. */
  stamp: number;
  at: number;
}

function unwrapped(sent: ReadonlyMap<number, number>): SentPicture[] {
  const first = sent.keys().next().value!;
  return [...sent].map(([raw, at]) => ({ raw, stamp: first + ((raw - first) >>> 0), at }));
}

function matchAll(pictures: SentPicture[], arrivals: readonly number[], offset: number, tolerance: number): number[] {
  const first = pictures[0]!.raw;
  const delays: number[] = [];
  for (let i = 0; i < arrivals.length; i += 2) {
    const stamp = first + ((arrivals[i]! - offset - first) >>> 0);
    const nearest = nearestPicture(pictures, stamp);
    if (nearest && Math.abs(nearest.stamp - stamp) <= tolerance) delays.push(arrivals[i + 1]! - nearest.at);
  }
  return delays;
}

/** Binary search over stamps that only rise. */
function nearestPicture(pictures: SentPicture[], stamp: number): SentPicture | undefined {
  let low = 0;
  let high = pictures.length - 1;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (pictures[middle]!.stamp < stamp) low = middle + 1;
    else high = middle;
  }
  const after = pictures[low];
  const before = pictures[low - 1];
  if (!before) return after;
  return after && after.stamp - stamp < stamp - before.stamp ? after : before;
}
