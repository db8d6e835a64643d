/**
 * A source URL as users and clients may see it: credentials of every URL in the text become
 * `***` (an expr: or exec: source may hold several URLs with passwords).
 */
export function redactSource(url: string): string {
  return url.replace(/([a-z][a-z0-9+.-]*:\/\/)[^/@\s"'`]+@/gi, '$1***@');
}
