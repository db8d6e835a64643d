// The Node major that the project's Electron bundles: development, the tests and the headless
// console run on it, so what passes here is what the desktop app runs. package.json's engines,
// its @types/node and scripts/use-node.sh (which fetches it) say the same; node-version.test.ts
// checks. Plain JavaScript (typed by node-version.d.mts) so `npm start` can refuse before
// anything is built.
export const REQUIRED_NODE_MAJOR = 24;

/** undefined when `version` will do; otherwise the one sentence that says what to install and how. */
export function nodeVersionProblem(version = process.versions.node) {
  if (Number(version.split('.')[0]) >= REQUIRED_NODE_MAJOR) return undefined;
  return `Relay Console needs Node ${REQUIRED_NODE_MAJOR} or later (this is Node ${version}): \`source scripts/use-node.sh\` fetches it into .tools/node and puts it first on PATH, or install Node ${REQUIRED_NODE_MAJOR} from nodejs.org.`;
}
