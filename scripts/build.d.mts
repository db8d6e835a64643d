/** The paths (folders or files, relative to the project) each bundle is built from. */
export const BUNDLE_INPUTS: Readonly<Record<'renderer' | 'main', readonly string[]>>;
/** A hash of the names and contents of every input file under `inputs`. */
export function inputsFingerprint(root: string, inputs: readonly string[]): string;
/** Built from exactly these inputs, and every output is still there. */
export function isUpToDate(root: string, bundle: 'renderer' | 'main', fingerprint: string, outputs: readonly string[]): boolean;
export interface BuildOptions {
  quiet?: boolean;
  /** Build even when nothing changed (`node scripts/build.mjs --force`). */
  force?: boolean;
  /** The project to build (tests build a small one in a temp folder). */
  root?: string;
}
/** Builds the renderer and the main-process entries that changed; says which were built. */
export function buildAll(options?: BuildOptions): Promise<{ renderer: boolean; main: boolean }>;
/** Builds the main-process entries if they changed; resolves with their names (dist/main/<name>.js). */
export function buildMain(options?: Omit<BuildOptions, 'quiet'>): Promise<string[]>;
/** Bundles every main-process entry (`<name>.js`), worker thread (`<name>.thread.cjs`) and the preload into `outdir`, whatever changed. */
export function bundleMain(root: string, outdir: string): Promise<void>;
