import { SegmentedControl, Text } from '@mantine/core';
import { COLOR_SCHEMES } from '@shared/contract/preferences';
import { COLOR_SCHEME_LABEL, isColorSchemePreference } from './color-scheme';
import { useColorSchemePreference } from './use-color-scheme-preference';

/** The sidebar's quick theme control: System, Light or Dark, one click (or arrow keys) away in every section. */
export function ThemeSwitch() {
  const theme = useColorSchemePreference();
  return (
    <div className="theme-switch">
      <SegmentedControl
        size="xs"
        fullWidth
        aria-label="Theme"
        value={theme.value}
        disabled={theme.disabled}
        onChange={(value) => (isColorSchemePreference(value) ? theme.choose(value) : undefined)}
        data={COLOR_SCHEMES.map((value) => ({ value, label: COLOR_SCHEME_LABEL[value] }))}
      />
      {theme.error ? (
        <Text role="alert" size="xs" c="var(--mantine-color-error)" mt={4}>
          The theme was not saved: {theme.error.message}
        </Text>
      ) : null}
    </div>
  );
}
