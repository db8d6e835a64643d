import type { ColorSchemePreference } from '../../src-shared/contract/preferences';
import { colorSchemeSchema } from '../../src-shared/contract/preferences';
import { COLOR_SCHEME_META } from '../../src-shared/contract/wire';
import type { ServiceGateway } from '../transport/service-host';

const metaPattern = (name: string) => new RegExp(`<meta name="${name}" content="[^"]*"\\s*/?>`);

/**
 * The index page with the stored colour theme written in, so the page paints in it before any
 * script runs: the renderer reads the meta tag at start, the `<html>` attribute selects Mantine's
 * dark or light colours at once, and `color-scheme` sets the browser's own (scrollbars, the blank
 * page). `system` leaves the choice to the browser's prefers-color-scheme.
 */
export function pageWithColorScheme(html: string, scheme: ColorSchemePreference): string {
  const page = html
    .replace(metaPattern(COLOR_SCHEME_META), `<meta name="${COLOR_SCHEME_META}" content="${scheme}">`)
    .replace(metaPattern('color-scheme'), `<meta name="color-scheme" content="${scheme === 'system' ? 'light dark' : scheme}">`);
  if (scheme === 'system') return page;
  return page.replace(/<html([^>]*)>/, (tag, attributes: string) =>
    attributes.includes('data-mantine-color-scheme') ? tag : `<html${attributes} data-mantine-color-scheme="${scheme}">`,
  );
}

/**
 * The colour theme kept by the `preferences` service, or `system` while that service is not
 * bound yet (the page is served before every module has started) or cannot answer.
 */
export async function storedColorScheme(services: Pick<ServiceGateway, 'call'>): Promise<ColorSchemePreference> {
  const result = await services.call('preferences', 'get', undefined);
  if (!result.ok) return 'system';
  const parsed = colorSchemeSchema.safeParse((result.value as { appearance?: { colorScheme?: unknown } }).appearance?.colorScheme);
  return parsed.success ? parsed.data : 'system';
}
