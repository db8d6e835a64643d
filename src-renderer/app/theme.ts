import { createTheme } from '@mantine/core';

/** The console's one theme: Mantine tokens in dark and light; components read tokens, never colours. */
export const consoleTheme = createTheme({
  primaryColor: 'blue',
  defaultRadius: 'md',
  fontFamily: "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif",
  fontFamilyMonospace: 'ui-monospace, SFMono-Regular, Menlo, monospace',
  focusRing: 'auto',
  cursorType: 'pointer',
});
