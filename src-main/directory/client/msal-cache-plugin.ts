import type { ICachePlugin, TokenCacheContext } from '@azure/msal-node';
import { openSealedFile, SealedFileError } from '../../platform/secrets/sealed-file';

const LABEL = 'relay-console msal token cache';

export interface EncryptedCachePluginOptions {
  /** e.g. `<data_dir>/directory/msal-cache.bin` */
  path: string;
  /** The AES-256 key (see createCacheKeySource). */
  key: () => Promise<Uint8Array>;
  /** Told when the file on disk is refused (altered or another key); the cache starts empty. */
  onRejected?: (reason: string) => void;
}

/**
 * msal-node's persistence hook: the serialized cache (accounts, refresh and access tokens) is
 * sealed with AES-256-GCM before it touches the disk and opened on the way back. A file that
 * does not open is not trusted at all: msal sees an empty cache and the user signs in again;
 * the next change overwrites the bad file.
 */
export function createEncryptedCachePlugin(options: EncryptedCachePluginOptions): ICachePlugin {
  const file = openSealedFile({ path: options.path, key: options.key, label: LABEL });

  return {
    async beforeCacheAccess(context: TokenCacheContext) {
      let text: string | null;
      try {
        text = await file.read();
      } catch (error) {
        if (!(error instanceof SealedFileError)) throw error;
        options.onRejected?.(error.message);
        text = null;
      }
      // Loaded on every access, changed or not: msal-node reads its cache through this hook,
      // and skipping an unchanged file left it empty after a silent call, so a person who had
      // just signed in was sent to the browser again. An empty object also clears a refused or
      // deleted file's accounts from before.
      context.tokenCache.deserialize(text ?? '{}');
    },
    async afterCacheAccess(context: TokenCacheContext) {
      if (!context.cacheHasChanged) return;
      const text = context.tokenCache.serialize();
      await file.write(text);
    },
  };
}
