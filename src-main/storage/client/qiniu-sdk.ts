import { createRequire } from 'node:module';
import type QiniuSdk from 'qiniu';

const requireFromHere = createRequire(import.meta.url);

/**
 * The official Kodo SDK, loaded when a storage client first needs it rather than at start: it
 * and its dependencies take about 10 MB, which a relay that never opens storage should not hold.
 * (Node caches it after the first call.)
 */
export const qiniuSdk = (): typeof QiniuSdk => requireFromHere('qiniu') as typeof QiniuSdk;
