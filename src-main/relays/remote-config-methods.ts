import { createHash } from 'node:crypto';
import type { ServiceImpl } from '@shared/contract/define-service';
import type { relaysService } from '@shared/contract/relays';
import { ContractFailure } from '@shared/contract/result';
import type { EngineContext } from '@main/engine/engine-context';
import { ConfigFileError, ConfigSyntaxError } from '@main/platform/config/errors';
import { unknownKeyWarnings } from '@main/platform/config/unknown-keys';
import { locateYamlPath, pathOfProblem } from '@main/platform/config/yaml-locate';
import type { StreamRegistry } from '@main/relay/core/stream-registry';
import { readStreamsSection } from '@main/relay/streams-config';
import { expectOk, remoteFailure } from './remote-failure';
import { relayRequest, type RelayTarget } from './relay-http';

type ConfigMethod = 'readConfig' | 'validateConfig' | 'writeConfig';
type Problem = { message: string; severity: 'error' | 'warning'; line?: number; column?: number };

const MAX_CONFIG_BYTES = 1024 * 1024;
/** How this app and go2rtc's forks mask what a caller may not read: `'***'` values, `://***@` logins. */
const MASKED = /:\s*'\*\*\*'\s*$|:\/\/\*\*\*@/m;

/** The revision of a config text: its hash, so a write can tell whether the file changed since it was read. */
const configRevision = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, 16);

export interface RemoteConfigDeps {
  ctx: EngineContext;
  targetOf(relay: string): RelayTarget;
  /** The embedded relay's streams, whose source checks a remote's `streams:` go through (absent without the relay). */
  streams?: StreamRegistry;
}

/**
 * A remote relay's config through its API: `GET /api/config` (the text) and `POST /api/config`
 * (replaces it), as go2rtc serves them. Checked first as the embedded relay's own config is; a
 * write lands only when the remote's text is still the one the editor read.
 */
export function remoteConfigMethods(deps: RemoteConfigDeps): Pick<ServiceImpl<typeof relaysService>, ConfigMethod> {
  const { ctx } = deps;
  const read = async (relay: string, target: RelayTarget) => {
    const answer = await relayRequest(target, '/api/config', { maxBytes: MAX_CONFIG_BYTES });
    if (answer.status === 404) throw new ContractFailure('unavailable', `relay ${relay} does not serve its config (it has no config file)`);
    return expectOk(relay, answer).text;
  };
  const validate = (text: string): Problem[] => {
    const located = (message: string, severity: Problem['severity'] = 'error'): Problem => {
      const path = pathOfProblem(message);
      const at = path ? locateYamlPath(text, path) : undefined;
      return { message, severity, ...(at ? { line: at.line, column: at.column } : {}) };
    };
    try {
      const values = ctx.config.check(text);
      const problems: Problem[] = [];
      for (const [name, sources] of readStreamsSection(values.streams)) {
        for (const source of sources) {
          try {
            deps.streams?.checkSource(source, 'config');
          } catch (error) {
            // The remote may play schemes this relay does not (go2rtc's hass:, homekit:, ...): a warning, not a stop.
            const unknownScheme = /source not supported/.test((error as Error).message);
            problems.push(located(`streams.${name}: ${(error as Error).message}`, unknownScheme ? 'warning' : 'error'));
          }
        }
      }
      for (const warning of unknownKeyWarnings(values, ctx.configSchemas, 'the relay config')) problems.push(located(warning, 'warning'));
      return problems;
    } catch (error) {
      if (error instanceof ConfigSyntaxError)
        return [{ message: error.message, severity: 'error', line: error.line, column: error.column }];
      if (error instanceof ConfigFileError) return [located(error.message)];
      throw error;
    }
  };
  const call = async <T>(relay: string, work: (target: RelayTarget) => Promise<T>): Promise<T> => {
    const target = deps.targetOf(relay);
    try {
      return await work(target);
    } catch (error) {
      throw remoteFailure(relay, error);
    }
  };

  return {
    readConfig: ({ relay }) =>
      call(relay, async (target) => {
        const text = await read(relay, target);
        return { text, revision: configRevision(text) };
      }),
    validateConfig: async ({ text }) => ({ problems: validate(text) }),
    writeConfig: ({ relay, text, baseRevision }) =>
      call(relay, async (target) => {
        const errors = validate(text).filter((p) => p.severity === 'error');
        if (errors.length > 0)
          throw new ContractFailure('invalid_input', `the config was not sent: ${errors[0]!.message}`, { problems: errors });
        const current = await read(relay, target);
        // A relay that masks secrets to this caller: its text sent back would overwrite them with ***.
        if (MASKED.test(current)) {
          throw new ContractFailure(
            'forbidden',
            `relay ${relay} shows its config to this console with secrets masked; give the relay's login (api.username) in Settings to edit it`,
          );
        }
        if (configRevision(current) !== baseRevision) {
          throw new ContractFailure(
            'conflict',
            `relay ${relay}'s config changed since it was opened, so nothing was sent: read it again first`,
          );
        }
        expectOk(relay, await relayRequest(target, '/api/config', { method: 'POST', body: text, maxBytes: MAX_CONFIG_BYTES }));
        return { revision: configRevision(await read(relay, target)) };
      }),
  };
}
