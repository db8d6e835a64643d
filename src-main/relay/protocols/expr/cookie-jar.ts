/**
 * Cookies of one evaluation, so a login `fetch` and the next one share a session as in go2rtc.
 * Kept per host name and sent back to that host only (Domain and Path attributes are not read).
 */
export class CookieJar {
  private readonly byHost = new Map<string, Map<string, string>>();

  store(url: URL, setCookieLines: string[]): void {
    for (const line of setCookieLines) {
      const [pair = '', ...attributes] = line.split(';');
      const equals = pair.indexOf('=');
      if (equals <= 0) continue;
      const name = pair.slice(0, equals).trim();
      const value = pair.slice(equals + 1).trim();
      const cookies = this.byHost.get(url.hostname) ?? new Map<string, string>();
      this.byHost.set(url.hostname, cookies);
      if (attributes.some(isExpiry)) cookies.delete(name);
      else cookies.set(name, value);
    }
  }

  /** The `Cookie` header value for a request to `url`, if any cookie is held for its host. */
  header(url: URL): string | undefined {
    const cookies = this.byHost.get(url.hostname);
    if (!cookies || cookies.size === 0) return undefined;
    return [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

/** `Max-Age=0` or an `Expires` in the past: the server deletes the cookie. */
function isExpiry(attribute: string): boolean {
  const [key = '', value = ''] = attribute.split('=').map((part) => part.trim());
  if (/^max-age$/i.test(key)) return Number(value) <= 0;
  if (/^expires$/i.test(key)) return Date.parse(attribute.slice(attribute.indexOf('=') + 1).trim()) <= Date.now();
  return false;
}
