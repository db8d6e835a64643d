import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useReducer, useState } from 'react';
import { useApi } from '../../api/api-context';
import { callService, serviceFilter } from '../../api/service-query';
import { NOT_CONNECTED } from '../../api/transport-websocket';
import { useServiceEvent } from '../../api/use-service-event';
import { useServiceMutation, useServiceQuery } from '../../api/use-service-query';
import { configDoc, emptyConfigDoc } from './model/config-doc';
import type { JsonSchemaNode } from './model/config-schema';
import type { ConfigProblem } from './model/problems';

const RESTART_WAIT_MS = 30_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The config file being edited: the draft against the file on disk (kept in step by
 * `onConfigFile`), the relay's problems with the draft, and revision-checked saves that can
 * restart the engine.
 */
export function useConfigFile() {
  const api = useApi();
  const queryClient = useQueryClient();
  const file = useServiceQuery('relay', 'readConfig', undefined, { staleTime: Infinity, gcTime: 0 });
  const schema = useServiceQuery('relay', 'configSchema', undefined, {
    staleTime: Infinity,
    select: (answer) => answer.schema as JsonSchemaNode,
  });
  const [doc, dispatch] = useReducer(configDoc, emptyConfigDoc);
  const [problems, setProblems] = useState<ConfigProblem[]>([]);
  const [checking, setChecking] = useState(false);

  // Fetched once, and again when the console reconnects (events sent meanwhile were missed).
  useEffect(() => {
    if (file.data) dispatch({ type: 'read', file: file.data });
  }, [file.data]);

  useServiceEvent(api.relay.onConfigFile, () => {
    void api.relay.readConfig().then((result) => result.ok && dispatch({ type: 'disk-changed', file: result.value }));
  });

  const validate = useCallback(
    async (text: string): Promise<ConfigProblem[]> => {
      setChecking(true);
      const result = await api.relay.validateConfig({ text }).finally(() => setChecking(false));
      // Refused while disconnected: checked again on reconnect (ConfigEditor's `recheck`).
      const reason = result.ok
        ? ''
        : result.error.code === NOT_CONNECTED
          ? 'not connected to the relay; it is checked again once the relay is back'
          : result.error.message;
      const list = result.ok
        ? result.value.problems
        : [{ message: `the relay could not check the file: ${reason}`, severity: 'error' as const }];
      setProblems(list);
      return list;
    },
    [api],
  );

  const save = useMutation({
    // No text: nothing to write, only a restart onto the file on disk (edited outside, not applied).
    mutationFn: async ({ text, baseRevision, restart }: { text?: string; baseRevision: string; restart: boolean }) => {
      if (text !== undefined) {
        const { revision } = await callService(api, 'relay', 'writeConfig', { text, baseRevision });
        dispatch({ type: 'saved', text, revision });
      }
      if (!restart) return { restartedAt: undefined };
      const before = (await callService(api, 'app', 'info')).startedAt;
      await callService(api, 'app', 'restart');
      // The engine answers, closes, and comes back: wait for an engine that started later.
      for (const deadline = Date.now() + RESTART_WAIT_MS; Date.now() < deadline;) {
        await sleep(500);
        const info = await api.app.info().catch(() => undefined);
        if (info?.ok && info.value.startedAt !== before) {
          // The new engine runs the file on disk: read it again, so nothing shows as not applied.
          const reread = await api.relay.readConfig();
          if (reread.ok) dispatch({ type: 'disk-changed', file: reread.value });
          return { restartedAt: info.value.startedAt };
        }
      }
      throw new Error('the file was saved, but the engine did not come back within 30 s; see its log');
    },
  });

  /** Re-reads the file on disk in main and applies it as a save does; the stream list follows at once. */
  const apply = useServiceMutation('relay', 'applyConfigFile', {
    onSuccess: (applied) => {
      dispatch({ type: 'applied', revision: applied.revision });
      void queryClient.invalidateQueries(serviceFilter('relay', 'listStreams'));
    },
  });

  return { file, schema, doc, dispatch, problems, checking, validate, save, apply };
}
