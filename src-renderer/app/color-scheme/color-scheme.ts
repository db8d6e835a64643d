import type { MantineColorScheme } from '@mantine/core';
import { COLOR_SCHEMES, type ColorSchemePreference } from '@shared/contract/preferences';

/** The words the theme controls show, in the order they show them. */
export const COLOR_SCHEME_LABEL: Record<ColorSchemePreference, string> = { system: 'System', light: 'Light', dark: 'Dark' };

/** What each choice does, for the settings page (the quick control in the sidebar has no room). */
export const COLOR_SCHEME_DESCRIPTION: Record<ColorSchemePreference, string> = {
  system: 'Follows the light or dark setting of your operating system, and changes when it does.',
  light: 'Dark text on a light background, whatever the system says.',
  dark: 'Light text on a dark background, whatever the system says.',
};

export function isColorSchemePreference(value: unknown): value is ColorSchemePreference {
  return typeof value === 'string' && (COLOR_SCHEMES as readonly string[]).includes(value);
}

/** The stored choice as Mantine names it: `system` is Mantine's `auto`. */
export const toMantineScheme = (preference: ColorSchemePreference): MantineColorScheme => (preference === 'system' ? 'auto' : preference);

export const fromMantineScheme = (scheme: MantineColorScheme): ColorSchemePreference => (scheme === 'auto' ? 'system' : scheme);

/**
 * The choice main wrote into the page it served (the meta tag's content); `system` when the
 * page carries none (a page opened from disk, a main that could not tell).
 */
export const colorSchemeFromPage = (content: string | null | undefined): ColorSchemePreference =>
  isColorSchemePreference(content) ? content : 'system';
