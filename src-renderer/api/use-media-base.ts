import { useServiceQuery } from './use-service-query';

/**
 * Where the relay's media URLs live, seen from this page: the page's own origin in a browser
 * (the console and the API share it), the relay API's address in the desktop window (app://).
 * Undefined until known.
 */
export function useMediaBase(): string | undefined {
  const info = useServiceQuery('app', 'info');
  if (location.protocol === 'http:' || location.protocol === 'https:') return location.origin;
  return info.data?.apiUrl.replace(/\/$/, '');
}
