import { useMutation } from '@tanstack/react-query';
import { useCallback, useEffect, useReducer, useState } from 'react';
import type { ConfigFile } from '@shared/contract/relay';
import { ContractFailure } from '@shared/contract/result';
import { useApi } from '@renderer/api/api-context';
import { callService } from '@renderer/api/service-query';
import { useServiceQuery } from '@renderer/api/use-service-query';
import { configDoc, emptyConfigDoc } from './model/config-doc';
import type { ConfigProblem } from './model/problems';

/** A remote relay's config as the editor's document: what it runs is what it serves, so the two revisions are one. */
const asFile = (relay: string, url: string, answer: { text: string; revision: string }): ConfigFile => ({
  path: `${relay}: ${url.replace(/\/$/, '')}/api/config`,
  text: answer.text,
  revision: answer.revision,
  runningRevision: answer.revision,
});

/**
 * A remote relay's config through its `/api/config`, asked by main: read once (not at all when
 * the relay is known not to serve it), checked as the embedded relay's own file is, and written
 * only over the revision it was read at.
 */
export function useRemoteConfig(relay: string, url: string, editable: boolean) {
  const api = useApi();
  const file = useServiceQuery('relays', 'readConfig', { relay }, { staleTime: Infinity, gcTime: 0, retry: false, enabled: editable });
  const [doc, dispatch] = useReducer(configDoc, emptyConfigDoc);
  const [problems, setProblems] = useState<ConfigProblem[]>([]);
  const [checking, setChecking] = useState(false);

  useEffect(() => {
    if (file.data) dispatch({ type: 'read', file: asFile(relay, url, file.data) });
  }, [file.data, relay, url]);

  const validate = useCallback(
    async (text: string): Promise<ConfigProblem[]> => {
      setChecking(true);
      const result = await api.relays.validateConfig({ relay, text }).finally(() => setChecking(false));
      const list = result.ok
        ? result.value.problems
        : [{ message: `the file could not be checked: ${result.error.message}`, severity: 'error' as const }];
      setProblems(list);
      return list;
    },
    [api, relay],
  );

  const save = useMutation({
    mutationFn: async ({ text, baseRevision }: { text: string; baseRevision: string }) => {
      const { revision } = await callService(api, 'relays', 'writeConfig', { relay, text, baseRevision });
      dispatch({ type: 'saved', text, revision });
    },
    // Written over elsewhere: read it again, so the editor can offer theirs or keep the edits.
    onError: (error) => {
      if (error instanceof ContractFailure && error.code === 'conflict') void file.refetch();
    },
  });

  return { file, doc, dispatch, problems, checking, validate, save };
}
