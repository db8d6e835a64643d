import { Radio, Stack, Text, Title } from '@mantine/core';
import { COLOR_SCHEMES } from '@shared/contract/preferences';
import { COLOR_SCHEME_DESCRIPTION, COLOR_SCHEME_LABEL, isColorSchemePreference } from '@renderer/app/color-scheme/color-scheme';
import { useColorSchemePreference } from '@renderer/app/color-scheme/use-color-scheme-preference';
import { ResultError } from '@renderer/ui/ResultError';

/** The console's colour theme, kept by main for the desktop window and every browser alike. */
export function AppearancePanel() {
  const theme = useColorSchemePreference();
  return (
    <section className="panel" aria-labelledby="appearance-title" data-testid="appearance">
      <Title order={2} id="appearance-title" size="h4" mb="xs">
        Appearance
      </Title>
      <Radio.Group
        label="Theme"
        description="The config editor and every section follow it. Saved for the desktop app and browsers alike."
        value={theme.value}
        onChange={(value) => (isColorSchemePreference(value) ? theme.choose(value) : undefined)}
      >
        <Stack gap="xs" mt="xs">
          {COLOR_SCHEMES.map((value) => (
            <Radio
              key={value}
              value={value}
              label={COLOR_SCHEME_LABEL[value]}
              description={COLOR_SCHEME_DESCRIPTION[value]}
              disabled={theme.disabled}
            />
          ))}
        </Stack>
      </Radio.Group>
      {theme.disabled ? (
        <Text size="sm" mt="xs">
          The theme can be changed once the console is connected again: main keeps it.
        </Text>
      ) : null}
      {theme.error ? <ResultError error={theme.error} title="The theme was not saved" /> : null}
    </section>
  );
}
