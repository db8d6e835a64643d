import { CODE_RUNNING_SCHEMES } from '@shared/relay/source-schemes';
import type { SchemeRegistry } from './scheme-registry';
import { schemeOf } from './scheme-registry';

// Refused by name (CODE_RUNNING_SCHEMES, shared with the console's hint) as well as by their
// handlers' `runsCode`, so they stay refused from the API even when their handler is not
// registered (the RTSP server is off, say) and a later config would bring it back.

/** The scheme of a source that runs a command on this machine (`exec`, ...), or undefined. */
export function codeRunningScheme(source: string, schemes: SchemeRegistry): string | undefined {
  const scheme = schemeOf(source);
  return schemes.resolve(source)?.runsCode || CODE_RUNNING_SCHEMES.includes(scheme) ? scheme : undefined;
}
