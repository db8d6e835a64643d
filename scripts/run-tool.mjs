// `npm run <tool> -- <args>`: builds the main-process entries and runs dist/main/<tool>.js
// under plain Node (e.g. the storage and directory emulators on their own).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildMain } from './build.mjs';
import { ENGINE_V8_FLAGS, engineEnv } from './engine-flags.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const [tool, ...args] = process.argv.slice(2);
await buildMain();
const entry = join(root, 'dist', 'main', `${tool}.js`);
if (!tool || !existsSync(entry)) {
  console.error(`unknown tool ${tool ?? '(none)'}: expected src-main/**/main.${tool ?? '<tool>'}.ts`);
  process.exit(2);
}
// With the engine's V8 flags: a service on its own runs as it does inside the app.
const child = spawn(process.execPath, [...ENGINE_V8_FLAGS, entry, ...args], { cwd: root, stdio: 'inherit', env: engineEnv() });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
