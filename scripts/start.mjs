// `npm start`: build, then open the Electron window where the Electron binary is installed;
// otherwise say so in one line and serve the same console headless.
// `npm run serve -- --config <file.yaml>`: always headless.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildAll } from './build.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const headlessOnly = args.includes('--headless');
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
  const child = spawn(command, commandArgs, { cwd: root, stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
}

await buildAll({ quiet: true });
const electron = headlessOnly ? undefined : electronBinary();
if (electron) {
  run(electron, ['.', ...forwarded]);
} else {
  if (!headlessOnly) {
    console.log('Electron binary not installed (npx install-electron fetches it); serving the console headless instead.');
  }
  run(process.execPath, [join(root, 'dist', 'main', 'headless.js'), ...forwarded]);
}
