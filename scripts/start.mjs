// `npm start`: build, then open the Electron window where the Electron binary is installed;
// otherwise say so in one line and serve the same console headless.
// `npm run serve -- --config <file.yaml>`: always headless.
// The command line is checked (and --help answered) before anything is built; only the bundles
// whose sources changed are rebuilt.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildAll } from './build.mjs';
import { ENGINE_V8_FLAGS, engineEnv } from './engine-flags.mjs';
import { helpText, parseCommandLine, UsageError } from '../src-main/cli-options.mjs';
import { nodeVersionProblem } from '../src-main/platform/node-version.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
// The headless console runs on this Node, and the native modules were built for the bundled major.
const tooOld = nodeVersionProblem();
if (tooOld) {
  console.error(tooOld);
  process.exit(1);
}
const args = process.argv.slice(2);

function readCommandLine() {
  try {
    return parseCommandLine(args);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`Relay Console: ${error.message}`);
    process.exit(2);
  }
}

const options = readCommandLine();
if (options.help) {
  console.log(helpText());
  process.exit(0);
}
const headlessOnly = options.headless === true;
const forwarded = args.filter((a) => a !== '--headless');

/** The Electron binary, if the electron package has downloaded it (it cannot be on every machine). */
function electronBinary() {
  const pkg = join(root, 'node_modules', 'electron');
  const pathFile = join(pkg, 'path.txt');
  if (!existsSync(pathFile)) return undefined;
  const binary = join(pkg, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(binary) ? binary : undefined;
}

function run(command, commandArgs) {
  const child = spawn(command, commandArgs, { cwd: root, stdio: 'inherit', env: engineEnv() });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
}

await buildAll({ quiet: true });
const electron = headlessOnly ? undefined : electronBinary();
if (electron) {
  run(electron, [`--js-flags=${ENGINE_V8_FLAGS.join(' ')}`, '.', ...forwarded]);
} else {
  if (!headlessOnly) {
    console.log('Electron binary not installed (npx install-electron fetches it); serving the console headless instead.');
  }
  run(process.execPath, [...ENGINE_V8_FLAGS, join(root, 'dist', 'main', 'headless.js'), ...forwarded]);
}
