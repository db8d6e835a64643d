import type { SchemeRegistry } from './scheme-registry';
import { schemeOf } from './scheme-registry';

/**
 * Schemes that run a command on this machine. Listed by name as well as by their handlers'
 * `runsCode`, so they stay refused from the API even when their handler is not registered
 * (the RTSP server is off, say) and a later config would bring it back.
 */
const CODE_RUNNING_SCHEMES: readonly string[] = ['exec', 'echo', 'expr'];

/** The scheme of a source that runs a command on this machine (`exec`, ...), or undefined. */
export function codeRunningScheme(source: string, schemes: SchemeRegistry): string | undefined {
  const scheme = schemeOf(source);
  return schemes.resolve(source)?.runsCode || CODE_RUNNING_SCHEMES.includes(scheme) ? scheme : undefined;
}
