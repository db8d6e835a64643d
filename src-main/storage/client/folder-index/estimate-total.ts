/**
 * "Indexed N of about M": Kodo has no count of a prefix, so while a folder is being listed the
 * total is guessed from how far through the key space the listing has come. Keys arrive in
 * byte order; the part after the characters every key so far shares is read as a fraction
 * (digits in base 10, letters in base 26, anything else as printable ASCII), and the listing's
 * share of the range from the first key to the end of that alphabet gives the total. The guess
 * assumes the shared part holds for the keys still to come, which is how numbered, dated and
 * hashed names behave (`file-00999` after `file-00000` says little; `file-01999` says a tenth);
 * it is never below what is listed plus one more page.
 */
export interface ListingProgress {
  /** Keys listed so far. */
  listed: number;
  /** The first and the latest key listed, without the folder prefix. */
  firstKey: string;
  lastKey: string;
  /** More pages to come. */
  more: boolean;
}

const DIGITS_TO_READ = 6;

type CharClass = 'digit' | 'lower' | 'upper' | 'other';

function classOf(code: number): CharClass {
  if (code >= 48 && code <= 57) return 'digit';
  if (code >= 97 && code <= 122) return 'lower';
  if (code >= 65 && code <= 90) return 'upper';
  return 'other';
}

const RADIX: Record<CharClass, number> = { digit: 10, lower: 26, upper: 26, other: 95 };
const BASE: Record<CharClass, number> = { digit: 48, lower: 97, upper: 65, other: 32 };

/** The key from `start` as a fraction in [0, 1), each position read in the class of `template`'s character there. */
function fractionOf(key: string, start: number, template: string): number {
  let value = 0;
  let scale = 1;
  for (let i = start; i < start + DIGITS_TO_READ; i++) {
    const templateCode = template.charCodeAt(i);
    const code = key.charCodeAt(i);
    if (Number.isNaN(code)) break;
    const kind = Number.isNaN(templateCode) || classOf(templateCode) !== classOf(code) ? 'other' : classOf(code);
    const radix = RADIX[kind];
    const digit = Math.min(radix - 1, Math.max(0, code - BASE[kind]));
    scale /= radix;
    value += digit * scale;
  }
  return value;
}

export function estimateTotal({ listed, firstKey, lastKey, more }: ListingProgress): number {
  if (!more) return listed;
  // At least one more page of what has come so far.
  const floor = listed + Math.max(1, Math.min(listed, 1000));
  let shared = 0;
  while (shared < firstKey.length && firstKey.charCodeAt(shared) === lastKey.charCodeAt(shared)) shared++;
  const from = fractionOf(firstKey, shared, lastKey);
  const to = fractionOf(lastKey, shared, lastKey);
  const covered = (to - from) / (1 - from);
  if (!(covered > 0) || !Number.isFinite(covered)) return floor;
  return Math.max(floor, Math.round(listed / covered));
}
