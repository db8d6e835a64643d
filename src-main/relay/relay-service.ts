import type { ServiceImpl } from '../../src-shared/contract/define-service';
import { relayService, type CodecInfo, type StreamSummary } from '../../src-shared/contract/relay';
import { ContractFailure } from '../../src-shared/contract/result';
import type { EngineContext } from '../engine/engine-context';
import type { WriteGuard } from '../platform/config/config-store';
import { ConfigFileError, ConfigSyntaxError } from '../platform/config/errors';
import { codeRunningScheme } from './core/code-running';
import type { SchemeRegistry } from './core/scheme-registry';
import { redactSource } from './core/redact-source';
import { SourceRejectedError, type StreamRegistry } from './core/stream-registry';
import { persistRename, persistStream, readStreamsSection } from './streams-config';
import { MaskedLoginError, restoreSavedLogins } from './saved-logins';
import type { CodecStats } from './media/codecs/codec-stats';
import { configJsonSchema } from '../platform/config/config-json-schema';
import { unknownKeyWarnings } from '../platform/config/unknown-keys';
import { locateYamlPath, pathOfProblem } from '../platform/config/yaml-locate';
import { watchConfigFile, readConfigFile, revisionOf } from './config-file-watch';
import { configChanges } from './config-apply';
import type { RtspSettings } from './rtsp-settings';

const EMIT_EVERY_MS = 1_000;

type ConfigFileMethod = 'readConfig' | 'configSchema' | 'validateConfig' | 'writeConfig' | 'applyConfigFile';

interface InfoLike {
  url?: string;
  state?: string;
  medias?: string[];
  bytes_recv?: number;
  bytes_send?: number;
  error?: string;
  protocol?: string;
  remote_addr?: string;
  senders?: unknown[];
  receivers?: Array<{ codec: CodecStats }>;
}

/** go2rtc's receiver codec stats in the contract's shape. */
function codecInfo(stats: CodecStats): CodecInfo {
  return {
    kind: stats.codec_type,
    name: stats.codec_name,
    ...(stats.profile ? { profile: stats.profile } : {}),
    ...(stats.width ? { width: stats.width, height: stats.height } : {}),
    ...(stats.sample_rate ? { sampleRate: stats.sample_rate, channels: stats.channels } : {}),
  };
}

const producerCodecs = (p: InfoLike): CodecInfo[] => (p.receivers ?? []).map((r) => codecInfo(r.codec));

function summarize(streams: StreamRegistry): StreamSummary[] {
  return streams.names().map((name) => {
    const stream = streams.get(name)!;
    const info = stream.info();
    return {
      name,
      sources: stream.sources.map(redactSource),
      producers: (info.producers as InfoLike[]).map((p) => ({
        url: redactSource(p.url ?? ''),
        state: (p.state as StreamSummary['producers'][number]['state']) ?? (p.medias ? 'running' : 'idle'),
        medias: p.medias ?? [],
        codecs: producerCodecs(p),
        bytesReceived: p.bytes_recv ?? 0,
        ...(p.error ? { error: p.error } : {}),
      })),
      consumers: (info.consumers as InfoLike[]).map((c) => ({
        protocol: c.protocol ?? 'unknown',
        remote: c.remote_addr ?? '',
        medias: c.medias ?? [],
        bytesSent: c.bytes_send ?? 0,
        drops: ((c.senders ?? []) as Array<{ drops: number }>).reduce((sum, s) => sum + s.drops, 0),
      })),
    };
  });
}

/** The RTSP server's address as a link needs it (nothing when `rtsp.listen` is empty: the server is off). */
export function rtspEndpoint(rtsp: Pick<RtspSettings, 'listen' | 'port' | 'username'>) {
  if (!rtsp.listen || !rtsp.port) return undefined;
  const host = rtsp.listen.replace(/:\d*$/, '').replace(/^\[(.*)\]$/, '$1');
  return { host, port: rtsp.port, needsLogin: Boolean(rtsp.username) };
}

export interface RelayServiceDeps {
  streams: StreamRegistry;
  /** Refuses a config that adds code-running sources over the API. */
  guard: WriteGuard;
  rtsp: RtspSettings;
  schemes: SchemeRegistry;
}

/** Binds the `relay` contract service: the console's view of streams and the config file. */
export function bindRelayService(ctx: EngineContext, { streams, guard, rtsp, schemes }: RelayServiceDeps): void {
  const check = (source: string, name: string) => {
    try {
      streams.checkSource(source, 'api', name);
    } catch (error) {
      if (error instanceof SourceRejectedError) throw new ContractFailure('invalid_input', error.message);
      throw error;
    }
  };
  const withSavedLogins = (sources: string[], saved: string[]) => {
    try {
      return restoreSavedLogins(sources, saved);
    } catch (error) {
      if (error instanceof MaskedLoginError) throw new ContractFailure('invalid_input', error.message);
      throw error;
    }
  };

  const emit = ctx.services.bind(relayService, {
    listStreams: async () => summarize(streams),
    addStream: async ({ name, sources }) => {
      if (streams.get(name)) throw new ContractFailure('conflict', `a stream named ${name} exists already`);
      const saved = withSavedLogins(sources, []);
      for (const source of saved) check(source, name);
      await persistStream(ctx.config, name, saved);
      streams.set(name, saved);
    },
    editStream: async ({ name, newName, sources }) => {
      const stream = streams.get(name);
      if (!stream) throw new ContractFailure('not_found', `no stream named ${name}`);
      const target = newName ?? name;
      if (target !== name && streams.get(target)) {
        throw new ContractFailure('conflict', `a stream named ${target} exists already: choose another name, or delete that stream first`);
      }
      const saved = withSavedLogins(sources, stream.sources);
      for (const source of saved) check(source, target);
      if (target === name) {
        await persistStream(ctx.config, name, saved);
        streams.set(name, saved);
        return;
      }
      // go2rtc has no rename: a client PUTs the new name and DELETEs the old one, and the old
      // stream's viewers are cut off (they asked for a name that is gone; go2rtc leaves them
      // running on an orphan). One config write does both here, so the file never has both or
      // neither; the config's change closes the old stream and its viewers, who reconnect by
      // the new name. The calls below make that explicit and are no-ops after the sync.
      await persistRename(ctx.config, name, target, saved);
      streams.set(target, saved);
      streams.delete(name);
    },
    deleteStream: async ({ name }) => {
      if (!streams.get(name)) throw new ContractFailure('not_found', `no stream named ${name}`);
      await persistStream(ctx.config, name, undefined);
      streams.delete(name);
    },
    checkSource: async ({ source }) => {
      const usable = schemes.schemes().filter((scheme) => !codeRunningScheme(`${scheme}:`, schemes));
      try {
        streams.checkSource(source, 'api', 'new');
        return { schemes: usable };
      } catch (error) {
        if (!(error instanceof SourceRejectedError)) throw error;
        return { problem: error.message.replace(/^streams: /, ''), schemes: usable };
      }
    },
    probeSource: async ({ source }) => {
      check(source, 'probe');
      const info = (await streams.probeSource(source)) as InfoLike | undefined;
      if (!info) return { medias: [], codecs: [], error: 'the source did not answer' };
      return {
        medias: info.medias ?? [],
        codecs: producerCodecs(info),
        ...(info.error ? { error: info.error } : !info.medias?.length ? { error: 'the source answered with no media' } : {}),
      };
    },
    endpoints: async () => {
      const endpoint = rtspEndpoint(rtsp);
      return endpoint ? { rtsp: endpoint } : {};
    },
    ...configFileMethods(ctx, streams, guard),
  });

  const stopWatching = watchConfigFile(ctx.config.path, (revision) => emit('onConfigFile', { revision }), ctx.logger.child('config-watch'));
  ctx.onClose(stopWatching);

  let last = '';
  const timer = setInterval(() => {
    // With no console open, no summary of every stream and consumer a second: the next one to
    // subscribe gets the whole list at the first tick.
    if (!ctx.services.listening(relayService.name, 'onStreams')) {
      last = '';
      return;
    }
    const list = summarize(streams);
    const json = JSON.stringify(list);
    if (json === last) return;
    last = json;
    emit('onStreams', list);
  }, EMIT_EVERY_MS);
  timer.unref();
  ctx.onClose(() => clearInterval(timer));
}

/** The config file's methods of the `relay` service: read, check, write, and apply what was edited on disk. */
function configFileMethods(
  ctx: EngineContext,
  streams: StreamRegistry,
  guard: WriteGuard,
): Pick<ServiceImpl<typeof relayService>, ConfigFileMethod> {
  const writeFailure = (error: unknown): never => {
    if (error instanceof ConfigSyntaxError || error instanceof ConfigFileError || error instanceof SourceRejectedError) {
      throw new ContractFailure('invalid_input', error.message);
    }
    throw error;
  };

  return {
    readConfig: async () => ({
      path: ctx.config.path,
      ...(await readConfigFile(ctx.config.path)),
      runningRevision: revisionOf(ctx.config.raw()),
    }),
    configSchema: async () => ({ schema: configJsonSchema(ctx.configSchemas) }),
    validateConfig: async ({ text }) => {
      const located = (message: string, severity: 'error' | 'warning' = 'error') => {
        const path = pathOfProblem(message);
        const at = path ? locateYamlPath(text, path) : undefined;
        return { message, severity, ...(at ? { line: at.line, column: at.column } : {}) };
      };
      try {
        const values = ctx.config.check(text);
        const problems = [];
        for (const [name, sources] of readStreamsSection(values.streams)) {
          for (const source of sources) {
            try {
              streams.checkSource(source, 'config');
            } catch (error) {
              problems.push(located(`streams.${name}: ${(error as Error).message}`));
            }
          }
        }
        try {
          guard(values, ctx.config.effective());
        } catch (error) {
          if (!(error instanceof SourceRejectedError)) throw error;
          problems.push(located(error.message));
        }
        for (const warning of unknownKeyWarnings(values, ctx.configSchemas, ctx.config.path)) problems.push(located(warning, 'warning'));
        return { problems };
      } catch (error) {
        if (error instanceof ConfigSyntaxError)
          return { problems: [{ message: error.message, severity: 'error' as const, line: error.line, column: error.column }] };
        if (error instanceof ConfigFileError) return { problems: [located(error.message)] };
        throw error;
      }
    },
    writeConfig: async ({ text, baseRevision }) => {
      if (baseRevision !== undefined) {
        const onDisk = await readConfigFile(ctx.config.path);
        if (onDisk.revision !== baseRevision) {
          throw new ContractFailure(
            'conflict',
            `${ctx.config.path} changed on disk since it was opened; reload it, then make the change again`,
          );
        }
      }
      await ctx.config.replace(text, guard).catch(writeFailure);
      return { revision: (await readConfigFile(ctx.config.path)).revision };
    },
    applyConfigFile: async ({ revision }) => {
      const onDisk = await readConfigFile(ctx.config.path);
      if (onDisk.revision !== revision) {
        throw new ContractFailure('conflict', `${ctx.config.path} changed on disk again; look at the new version, then apply it`);
      }
      const running = ctx.config.effective();
      // Written back as it is (same bytes, so the watcher stays quiet) through the one write path
      // that validates and then tells every module. No code-running guard: this text is the file
      // edited on disk, the one place where exec: sources may come from.
      await ctx.config.replace(onDisk.text).catch((error: unknown) => {
        if (error instanceof ConfigSyntaxError) {
          throw new ContractFailure('invalid_input', `${ctx.config.path}: ${error.message}; nothing was applied`, {
            line: error.line,
            column: error.column,
          });
        }
        if (error instanceof ConfigFileError)
          throw new ContractFailure('invalid_input', `${ctx.config.path}: ${error.message}; nothing was applied`);
        throw error;
      });
      return { revision, ...configChanges(running, ctx.config.effective()) };
    },
  };
}
