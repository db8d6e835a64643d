import { CLIP_SECONDS } from '@shared/contract/recordings';

/** The lengths offered with one click; any other is typed. */
export const CLIP_PRESETS = [10, 30, 60] as const;

/**
 * The clip length typed or chosen, as the service takes it: whole seconds within the contract's
 * bounds, or a sentence saying what is wrong with it.
 */
export function clipSeconds(value: string | number): { seconds: number } | { error: string } {
  const n = typeof value === 'number' ? value : Number(value.trim());
  if (!Number.isFinite(n) || (typeof value === 'string' && value.trim() === '')) return { error: 'Type a number of seconds.' };
  if (n < CLIP_SECONDS.min || n > CLIP_SECONDS.max)
    return { error: `A clip is ${CLIP_SECONDS.min} to ${CLIP_SECONDS.max} seconds (10 minutes) long.` };
  return { seconds: Math.round(n) };
}

/**
 * What the dialog says of how long the clip will be: a recorded stream's clip is as long as
 * asked (cut at keyframes); another stream's is what the relay holds in memory.
 */
export function clipLengthNote(stream: string, recorded: boolean, memorySeconds: number | undefined): string {
  if (recorded) return `The clip comes from ${stream}'s recording and what the relay holds in memory, cut at keyframes.`;
  if (memorySeconds === undefined) return `Asking the relay how much of ${stream} it holds in memory…`;
  if (memorySeconds === 0)
    return `${stream} is not recorded and the relay holds none of it in memory now (its source is not connected): there is nothing to clip.`;
  return `${stream} is not recorded: the relay holds only its last ${memorySeconds.toFixed(1)} s in memory (the current group of pictures), so the clip is that long.`;
}
