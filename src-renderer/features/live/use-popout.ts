import { useCallback } from 'react';
import { useApi } from '../../api/api-context';
import { callService } from '../../api/service-query';
import { printRoute } from '../../app/routes';

/**
 * Opens a camera on its own: a desktop window made by main (which remembers it across
 * restarts), or in a browser a window on the `#/camera/<name>` route.
 */
export function usePopout(): (stream: string) => Promise<void> {
  const api = useApi();
  return useCallback(
    async (stream: string) => {
      const { opened } = await callService(api, 'preferences', 'openPopout', { stream });
      if (opened) return;
      const url = `${location.pathname}${printRoute({ section: 'camera', stream })}`;
      window.open(url, `camera-${stream}`, 'popup,width=960,height=560');
    },
    [api],
  );
}
