import type { MantineColorScheme, MantineColorSchemeManager } from '@mantine/core';

/**
 * Mantine's colour-scheme store, held in memory and nothing else: the choice is kept by main's
 * `preferences` service (so the desktop window and browsers agree), which the page arrives
 * with (main writes it into the index page) and which `useColorSchemePreference` saves and
 * follows. Mantine's own manager would keep a second copy in localStorage that could disagree.
 */
export function createColorSchemeManager(initial: MantineColorScheme): MantineColorSchemeManager {
  let current = initial;
  return {
    get: () => current,
    set: (value) => {
      current = value;
    },
    // Changes from other windows arrive as the preferences query, not through Mantine.
    subscribe: () => undefined,
    unsubscribe: () => undefined,
    clear: () => {
      current = initial;
    },
  };
}
