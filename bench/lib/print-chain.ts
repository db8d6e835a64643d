import type { ChainResult, RelayFigures } from './relay-chain';

const cell = (value: number, digits: number, width: number) => (Number.isFinite(value) ? value.toFixed(digits) : '-').padStart(width);

function row(name: string, ours: RelayFigures, peer: RelayFigures | undefined): string {
  const pair = (a: number, b: number | undefined, digits: number) =>
    `${cell(a, digits, 0)}/${b === undefined ? '-' : cell(b, digits, 0)}`.padStart(13);
  return [
    name.padEnd(7),
    pair(ours.cpuPercent, peer?.cpuPercent, 1),
    pair(ours.rss, peer?.rss, 0),
    `${ours.served}/${peer?.served ?? '-'}`.padStart(10),
    `${ours.gaps}/${peer?.gaps ?? '-'}`.padStart(9),
    pair(ours.pictureP50, peer?.pictureP50, 1),
    pair(ours.pictureP99, peer?.pictureP99, 1),
  ].join(' ');
}

/** The chain's table: per relay, this app's figure / GStreamer's. */
export function printChain(result: ChainResult, options: { viewers: number; seconds: number; rounds: number }): void {
  const peer = typeof result.peer === 'string' ? undefined : result.peer;
  console.log(
    `fan-out chain: one 1280x720 H264 camera (~2 Mbit/s, 25 fps) → relay A → relays B and C; ${options.viewers} RTSP/TCP viewers on each of the three at once, ${options.seconds} s per window, ${options.rounds} round(s) turn about, medians shown`,
  );
  console.log(
    'ours: this app headless (B and C play relay://a/cam through their relays: section); peer: GStreamer RTSP server (bench/peers/gst-rtsp-relay.py, rtspsrc → shared media)',
  );
  if (typeof result.peer === 'string') console.log(`peer: not run: ${result.peer}`);
  console.log(
    'delay: whole pictures, from the last packet of a picture handed to A (the peer: to the tap A pulls from) to a viewer having its last packet (ms)\n',
  );
  console.log('relay    CPU % o/p     RSS MiB o/p  served o/p  lost o/p  picture p50 o/p  picture p99 o/p');
  result.ours.forEach((ours, i) => console.log(row(['A', 'B', 'C'][i]!, ours, peer?.[i])));
  const sum = (figures: RelayFigures[]) => figures.reduce((total, f) => total + f.cpuPercent, 0);
  console.log(`CPU of the three together: ${sum(result.ours).toFixed(1)} % ours, ${peer ? `${sum(peer).toFixed(1)} %` : '-'} the peer's`);
}
