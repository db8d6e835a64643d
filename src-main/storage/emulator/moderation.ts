import { KodoError } from './kodo-error';

/**
 * Content moderation: image (`nrop`, `qpulp`, `qterror`, `qpolitician`, `image-censor`) and
 * video processing commands, and the censor API (`/v3/image/censor`, `/v3/video/censor`). An
 * account has to enable the service with Qiniu first; the emulator has no classifier, so it
 * answers as Kodo does for an account without it rather than invent a verdict.
 */
export const MODERATION_COMMANDS: ReadonlySet<string> = new Set([
  'nrop',
  'qpulp',
  'qterror',
  'qpolitician',
  'image-censor',
  'video-censor',
  'censor',
]);

export const MODERATION_PATHS: ReadonlySet<string> = new Set(['/v3/image/censor', '/v3/video/censor']);

export function moderationNotEnabled(what: string): KodoError {
  return new KodoError(
    403,
    `${what}: the content moderation service is not enabled for this account (enable it in the Qiniu console; this emulator has no classifier)`,
  );
}
