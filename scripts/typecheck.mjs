// `npm run typecheck`: one TypeScript program per environment (the projects tsconfig.json
// references: shared, renderer, main, node-dom), checked side by side, so a Node API in the
// renderer or a DOM global in main is an error. Each keeps what it learnt in .tmp/tsc, and a
// second run checks only what changed since. Exits non-zero when any program has an error.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = fileURLToPath(new URL('..', import.meta.url));
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');

const solution = ts.parseConfigFileTextToJson('tsconfig.json', readFileSync(join(root, 'tsconfig.json'), 'utf8'));
if (solution.error) throw new Error(ts.flattenDiagnosticMessageText(solution.error.messageText, '\n'));
const projects = solution.config.references.map((reference) => reference.path);

function check(project) {
  const name = project.replace(/^\.\/tsconfig\.|\.json$/g, '');
  const args = [
    tsc,
    '--noEmit',
    '--pretty',
    'false',
    '-p',
    project,
    '--incremental',
    '--tsBuildInfoFile',
    join('.tmp', 'tsc', `${name}.tsbuildinfo`),
  ];
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, args, { cwd: root });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => resolve({ name, ok: code === 0, output, seconds: (Date.now() - started) / 1000 }));
  });
}

// As many programs at once as there are cores: each is one single-threaded tsc.
const pending = [...projects];
const results = [];
await Promise.all(
  Array.from({ length: Math.min(availableParallelism(), projects.length) }, async () => {
    while (pending.length > 0) {
      const result = await check(pending.shift());
      if (result.output.trim()) process.stdout.write(result.output);
      console.log(`typecheck ${result.name}: ${result.ok ? 'ok' : 'FAILED'} in ${result.seconds.toFixed(1)} s`);
      results.push(result);
    }
  }),
);
process.exit(results.every((result) => result.ok) ? 0 : 1);
