import { useMantineColorScheme } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { AppearancePreferences, ColorSchemePreference } from '@shared/contract/preferences';
import { useApi } from '../../api/api-context';
import { callService, serviceKey } from '../../api/service-query';
import { usePreferences } from '../../api/use-preferences';
import { useConnected } from '../use-connection';
import { fromMantineScheme, toMantineScheme } from './color-scheme';

/**
 * The colour theme shown and a way to choose another: the choice shows at once and is saved by
 * main; when main refuses it (not connected, a write that failed) the console goes back to the
 * theme it had and says why.
 */
export function useColorSchemePreference() {
  const api = useApi();
  const queryClient = useQueryClient();
  const connected = useConnected();
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  const preferences = serviceKey('preferences', 'get');
  const save = useMutation({
    // The whole appearance, as the cache holds it, so it shows at once.
    mutationFn: (appearance: AppearancePreferences) => callService(api, 'preferences', 'setAppearance', appearance),
    onMutate: (appearance) => {
      const before = fromMantineScheme(colorScheme);
      queryClient.setQueryData(preferences, (old) => (old ? { ...old, appearance } : old));
      setColorScheme(toMantineScheme(appearance.colorScheme));
      return { before };
    },
    onError: (_error, _appearance, context) => {
      if (!context) return;
      queryClient.setQueryData(preferences, (old) => (old ? { ...old, appearance: { colorScheme: context.before } } : old));
      setColorScheme(toMantineScheme(context.before));
    },
    onSuccess: (saved) => queryClient.setQueryData(preferences, saved),
  });
  return {
    value: fromMantineScheme(colorScheme),
    choose: (colorScheme: ColorSchemePreference) => save.mutate({ colorScheme }),
    error: save.error,
    /** The choice cannot be saved while main is out of reach, so the controls say so and wait. */
    disabled: !connected,
  };
}

/**
 * Shows the theme main keeps: at start (when it differs from the one the page was served with)
 * and whenever another window changes it (the preferences event updates the query).
 */
export function useFollowStoredColorScheme(): void {
  const stored = usePreferences().data?.appearance.colorScheme;
  const { setColorScheme } = useMantineColorScheme();
  const apply = useRef(setColorScheme);
  apply.current = setColorScheme;
  useEffect(() => {
    if (stored) apply.current(toMantineScheme(stored));
  }, [stored]);
}
