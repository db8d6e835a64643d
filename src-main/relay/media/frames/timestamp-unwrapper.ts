/**
 * RTP timestamps are 32 bits and wrap (every 13 hours at 90 kHz, sooner from a random start);
 * containers want a time that only grows. This extends them, taking the nearer of the two
 * readings at each step so small reorderings go backwards instead of jumping a whole cycle.
 */
export function createTimestampUnwrapper(): (timestamp: number) => number {
  let last: number | undefined;
  let base = 0;
  return (timestamp) => {
    if (last !== undefined) {
      const delta = timestamp - last;
      if (delta < -0x80000000) base += 0x100000000;
      else if (delta > 0x80000000) base -= 0x100000000;
    }
    last = timestamp;
    return base + timestamp;
  };
}
