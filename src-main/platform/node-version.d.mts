/** The Node major that the project's Electron bundles, and the oldest the headless console runs on. */
export const REQUIRED_NODE_MAJOR: number;
/** undefined when `version` (default: this process's) will do; otherwise one sentence saying what to install and how. */
export function nodeVersionProblem(version?: string): string | undefined;
