/**
 * A whole number with its thousands grouped by commas, as `n.toLocaleString('en-US')` writes it.
 * Written out because the engine formats counts while it starts (policy limits, batch plans), and
 * the first `toLocaleString` maps ICU's number data: about 5 MB more resident memory for a
 * process that never shows a localized number.
 */
export function wholeNumber(n: number): string {
  if (!Number.isSafeInteger(n)) return String(n);
  const digits = String(Math.abs(n));
  let grouped = '';
  for (let end = digits.length; end > 0; end -= 3) {
    const group = digits.slice(Math.max(0, end - 3), end);
    grouped = grouped ? `${group},${grouped}` : group;
  }
  return n < 0 ? `-${grouped}` : grouped;
}
