/** `2026-11-27T08-15-03.250Z`: the UTC time, with no `:` (a file name on every system). */
const stamp = (ms: number) => new Date(ms).toISOString().replace(/:/g, '-');

/** A live stream's snapshot: `<prefix>snapshots/<stream>/<UTC time>.jpg`, sorted by time within the stream's folder. */
export function snapshotKey(prefix: string, stream: string, atMs: number): string {
  return `${prefix}snapshots/${keyPart(stream)}/${stamp(atMs)}.jpg`;
}

/** A clip of a live stream: `<prefix>clips/<stream>/<UTC time of its end>.mp4`. */
export function clipKey(prefix: string, stream: string, endMs: number): string {
  return `${prefix}clips/${keyPart(stream)}/${stamp(endMs)}.mp4`;
}

/** A stream name as one folder of a key: a `/` in it would open folders of its own. */
function keyPart(stream: string): string {
  return stream.replace(/\//g, '_');
}
