import type { TransferStatus } from '@shared/contract/transfers';
import { formatBytes } from '@renderer/ui/format';

type Upload = Pick<TransferStatus, 'id' | 'kind' | 'state' | 'size' | 'received' | 'localPath'>;

/**
 * A browser upload whose bytes have not all reached the console, and whose file this page no
 * longer holds (the page was reloaded, or the app restarted): nothing will send the rest until
 * the user chooses the file again. Desktop uploads (`localPath`) are read by main and never wait.
 */
export function needsFile(t: Upload, held: ReadonlySet<string>): boolean {
  return (
    t.kind === 'upload' &&
    t.localPath === undefined &&
    (t.state === 'receiving' || t.state === 'paused') &&
    t.received < t.size &&
    !held.has(t.id)
  );
}

export interface ChosenAgain {
  name: string;
  size: number;
  lastModified: number;
}

export type MatchResult = { ok: true } | { ok: false; problem: string };

/**
 * Is the file chosen again the one the upload started with? Same name and size, and the same
 * last change when the console knows it: the console goes on from the bytes it already holds,
 * so another file would be spliced onto the first one's beginning.
 */
export function matchChosenFile(t: Pick<TransferStatus, 'name' | 'size' | 'fileName' | 'lastModified'>, chosen: ChosenAgain): MatchResult {
  const expectedName = t.fileName ?? t.name.slice(t.name.lastIndexOf('/') + 1);
  if (chosen.name !== expectedName)
    return { ok: false, problem: `That is “${chosen.name}”; this upload needs “${expectedName}”. Choose that file.` };
  if (chosen.size !== t.size) {
    // Bytes only when the rounded sizes read the same: "20 MiB" against "20 MiB" says nothing.
    const sizeOf = (n: number) =>
      formatBytes(chosen.size) === formatBytes(t.size) ? `${n.toLocaleString('en-US')} bytes` : formatBytes(n);
    return {
      ok: false,
      problem: `“${chosen.name}” has ${sizeOf(chosen.size)}; the upload started with ${sizeOf(t.size)}. Choose the same file, or cancel this upload.`,
    };
  }
  if (t.lastModified !== undefined && chosen.lastModified !== t.lastModified) {
    return {
      ok: false,
      problem: `“${chosen.name}” was changed after the upload started (${new Date(chosen.lastModified).toLocaleString()}). Cancel this upload and upload it anew.`,
    };
  }
  return { ok: true };
}
