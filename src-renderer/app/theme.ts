import { createTheme } from '@mantine/core';

/** The console's one theme: Mantine tokens in dark and light; components read tokens, never colours. */
export const consoleTheme = createTheme({
  primaryColor: 'blue',
  // Shade 8 keeps white button labels and blue links on white at WCAG AA contrast (4.5:1).
  primaryShade: { light: 8, dark: 8 },
  defaultRadius: 'md',
  fontFamily: "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif",
  fontFamilyMonospace: 'ui-monospace, SFMono-Regular, Menlo, monospace',
  focusRing: 'auto',
  cursorType: 'pointer',
  // Dialogs and menus appear without animation for people who asked their system for less motion.
  respectReducedMotion: true,
  components: {
    // The close button of every dialog says what it does to a screen reader.
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } },
    Drawer: { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } },
    // Toasts: a named dismiss button, and body text at full contrast (Mantine's dimmed grey is below AA).
    Notification: {
      defaultProps: { closeButtonProps: { 'aria-label': 'Dismiss' } },
      styles: { description: { color: 'var(--mantine-color-text)' } },
    },
    // An alert's title in the text colour: Mantine's light-variant green and yellow titles on
    // their tinted backgrounds are below AA; the bar and tint still say which kind it is.
    Alert: { styles: { title: { color: 'var(--mantine-color-text)' } } },
  },
});
