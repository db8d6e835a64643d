import { safeEqual } from '@main/platform/safe-equal';
import { isLoopbackAddress } from '@main/platform/http/request-guard';

/**
 * The login RTMP publishers need: `rtsp.username` and `rtsp.password`, the one the RTSP server
 * asks of its publishers, with the same `rtsp.local_auth` rule (this machine is exempt unless set).
 */
export interface PublishLogin {
  username: string;
  password: string;
  localAuth: boolean;
}

export function loginRequired(login: PublishLogin | undefined, remoteAddress: string | undefined): login is PublishLogin {
  if (!login?.username) return false;
  return login.localAuth || !isLoopbackAddress((remoteAddress ?? '').replace(/^::ffff:/, ''));
}

/**
 * `user` and `pass` (or `password`) from the query of an app or stream key, as ffmpeg and OBS
 * send what follows `?` verbatim: `garage?user=u&pass=p`. A second `?` (ffmpeg appends its own
 * query to an app that had one) counts as `&`. Undefined when it names no user.
 */
export function credentialsIn(text: string): { user: string; pass: string } | undefined {
  const at = text.indexOf('?');
  if (at < 0) return undefined;
  const query = new URLSearchParams(text.slice(at + 1).replaceAll('?', '&'));
  const user = query.get('user');
  if (user === null) return undefined;
  return { user, pass: query.get('pass') ?? query.get('password') ?? '' };
}

/** A name as it may be logged or shown: the query (where credentials travel) left out. */
export const withoutQuery = (text: string) => text.replace(/\?.*$/s, '');

/** Whether the credentials match, compared in constant time (the RTSP server's Basic check compares the same pair). */
export function sameLogin(given: { user: string; pass: string }, login: PublishLogin): boolean {
  // Both compared every time: which one was wrong must not show in the time taken.
  const user = safeEqual(given.user, login.username);
  const pass = safeEqual(given.pass, login.password);
  return user && pass;
}
