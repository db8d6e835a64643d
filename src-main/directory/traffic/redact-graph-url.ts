// Graph URLs carry state that works like a password: a delta or skip token lets whoever holds
// it read the changes of a mailbox, and sign-in URLs carry codes and secrets. The traffic panel
// shows where a request went, never those values.

const SECRET_PARAMETERS = new Set([
  '$deltatoken',
  '$skiptoken',
  'deltatoken',
  'skiptoken',
  'code',
  'client_secret',
  'client_assertion',
  'access_token',
  'refresh_token',
  'id_token',
  'password',
  'sig',
  'token',
]);

const HIDDEN = '…';

/** A query value encoded as Graph clients write it: OData's punctuation stays readable, `&` and spaces do not. */
const readable = (value: string) => encodeURIComponent(value).replace(/%(24|2C|3D|2F|3A)/g, (escape) => decodeURIComponent(escape));

/** The URL with the values of secret query parameters replaced by an ellipsis; user info dropped. */
export function redactGraphUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return HIDDEN;
  }
  url.username = '';
  url.password = '';
  const kept: string[] = [];
  for (const [name, value] of url.searchParams) {
    const hidden = SECRET_PARAMETERS.has(name.toLowerCase());
    kept.push(`${name}=${hidden ? HIDDEN : readable(value)}`);
  }
  return `${url.origin}${url.pathname}${kept.length > 0 ? `?${kept.join('&')}` : ''}`;
}
