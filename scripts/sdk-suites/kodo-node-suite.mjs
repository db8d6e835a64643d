// Runs the qiniu Node SDK's own test suite (a checkout of github.com/qiniu/nodejs-sdk with its
// npm install done) against the storage emulator, and prints what passed, per test file.
//
//   npm run sdk-suite:kodo-node -- --sdk ../nodejs-sdk [--keep]
//
// The emulator runs from dist/ with one account, a public bucket with a download domain and
// https on; the suite's requests to Qiniu's host names are sent to it (qiniu-hosts-preload.cjs)
// and it trusts the emulator's CA through NODE_EXTRA_CA_CERTS. Tests of services outside
// Kodo's storage API (RTC, the sandbox) are not run.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { freePort, startStorageEmulator } from './suite-kit.mjs';

const { values } = parseArgs({ options: { sdk: { type: 'string' }, keep: { type: 'boolean', default: false } } });
if (!values.sdk || !existsSync(join(values.sdk, 'test', 'conftest.js'))) {
  console.error('usage: npm run sdk-suite:kodo-node -- --sdk <checkout of qiniu/nodejs-sdk, npm install done>');
  process.exit(2);
}
const sdk = resolve(values.sdk);
// Qiniu's service hosts (a leading dot: every name under it). Names the suites expect NOT to
// resolve (fake.nodesdk.qiniu.com, for retry tests) stay outside.
const QINIU_HOSTS = [
  '.qiniuapi.com',
  '.qbox.me',
  '.qiniup.com',
  '.qiniucs.com',
  '.clouddn.com',
  'rs.qiniu.com',
  'rsf.qiniu.com',
  'api.qiniu.com',
  'uc.qiniu.com',
];
const ACCESS_KEY = 'sdk-suite-access-key';
const SECRET_KEY = 'sdk-suite-secret-key';
const BUCKET = 'sdk-suite';
const DOMAIN = 'sdk-suite.clouddn.com';
const ACCELERATED = `${BUCKET}.kodo-accelerate.cn-east-1.qiniucs.com`;

const work = mkdtempSync(join(tmpdir(), 'kodo-sdk-suite-'));
const port = await freePort();
writeFileSync(
  join(work, 'relay.yaml'),
  [
    `data_dir: ${JSON.stringify(join(work, 'data'))}`,
    'log:\n  level: error',
    'storage:',
    '  emulator:',
    `    listen: 127.0.0.1:${port}`,
    // A wildcard covers one label: the accelerated host (three under qiniucs.com) is named as it is.
    `    tls:\n      names: [${[...QINIU_HOSTS.map((h) => (h.startsWith('.') ? `"*${h}"` : h)), ACCELERATED].join(', ')}]`,
    // The workflow template the fop suite starts uploads with.
    '    workflows:\n      test-workflow: imageInfo',
    '    accounts:',
    `      - access_key: ${ACCESS_KEY}`,
    `        secret_key: ${SECRET_KEY}`,
    '        dir_refresh: true',
    // The suite lists its bucket by these tags. Its pfop tests upload through North America's
    // host (Zone_na0), which Kodo refuses for a bucket of another region: the bucket is in na0.
    `        buckets:\n          - name: ${BUCKET}\n            region: na0\n            domains: [${DOMAIN}]\n            accelerate_domain: ${ACCELERATED}\n            tags: { sdk: nodejs, lang: javascript }`,
    '',
  ].join('\n'),
);
const emulator = await startStorageEmulator(join(work, 'relay.yaml'));
const env = {
  ...process.env,
  NODE_ENV: 'test',
  QINIU_ACCESS_KEY: ACCESS_KEY,
  QINIU_SECRET_KEY: SECRET_KEY,
  QINIU_TEST_BUCKET: BUCKET,
  QINIU_TEST_DOMAIN: DOMAIN,
  KODO_EMULATOR_PORT: String(port),
  KODO_EMULATOR_HOSTS: QINIU_HOSTS.join(','),
  NODE_EXTRA_CA_CERTS: join(work, 'data', 'storage', 'tls', 'ca.pem'),
  // The SDK keeps region answers in os.tmpdir(): a run of its own starts without another run's.
  TMPDIR: join(work, 'tmp'),
};
mkdirSync(env.TMPDIR);
const preload = fileURLToPath(new URL('qiniu-hosts-preload.cjs', import.meta.url));

try {
  // The objects the suites expect in their bucket: a short H.264/AAC clip they copy and
  // process, and test_file they download by a private URL; uploaded with the SDK itself.
  const clip = join(work, 'qiniu.mp4');
  execFileSync('ffmpeg', [
    '-loglevel',
    'error',
    '-f',
    'lavfi',
    '-i',
    'testsrc=size=320x240:rate=25',
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440',
    '-t',
    '3',
    '-c:v',
    'libx264',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-shortest',
    clip,
  ]);
  const seed = `const q = require(${JSON.stringify(sdk)}); const mac = new q.auth.digest.Mac(process.env.QINIU_ACCESS_KEY, process.env.QINIU_SECRET_KEY);
const up = new q.form_up.FormUploader(new q.conf.Config());
const put = (key, send) => send(new q.rs.PutPolicy({ scope: '${BUCKET}:' + key }).uploadToken(mac), key).then(({ resp }) => { if (resp.statusCode !== 200) { console.error(key, resp.statusCode); process.exit(1); } });
put('qiniu.mp4', (token, key) => up.putFile(token, key, ${JSON.stringify(clip)}, null)).then(() => put('test_file', (token, key) => up.put(token, key, 'test file', null)));`;
  execFileSync(process.execPath, ['-r', preload, '-e', seed], { env, stdio: 'inherit' });

  const files = readdirSync(join(sdk, 'test'))
    .filter((f) => f.endsWith('.test.js') && !/^(sandbox_|rtc)/.test(f))
    .sort()
    .map((f) => join('test', f));
  const mocha = join(sdk, 'node_modules', '.bin', 'mocha');
  const reporter = fileURLToPath(new URL('file-reporter.cjs', import.meta.url));
  const started = Date.now();
  const result = { passes: [], failures: [], pending: [] };
  // One mocha per file: a hook that throws in one file (mocha 6 then stops the run) costs only that file.
  for (const file of files) {
    const report = join(work, `${file.split('/').pop()}.json`);
    try {
      execFileSync(mocha, ['-t', '60000', '--require', preload, '--reporter', reporter, file], {
        cwd: sdk,
        env: { ...env, KODO_SUITE_REPORT: report },
        stdio: ['ignore', 'ignore', 'ignore'],
      });
    } catch {
      // mocha exits non-zero when a test fails; the report says which.
    }
    if (!existsSync(report)) {
      result.failures.push({ title: `${file}: the run stopped before its end`, file, message: 'no report' });
      continue;
    }
    const one = JSON.parse(readFileSync(report, 'utf8'));
    for (const key of ['passes', 'failures', 'pending']) result[key].push(...one[key]);
  }
  const byFile = new Map();
  const count = (test, outcome) => {
    const file = (test.file ?? '').split('/').pop();
    const row = byFile.get(file) ?? { passed: 0, failed: 0, pending: 0 };
    row[outcome] += 1;
    byFile.set(file, row);
  };
  for (const test of result.passes) count(test, 'passed');
  for (const test of result.failures) count(test, 'failed');
  for (const test of result.pending) count(test, 'pending');
  const total = (key) => result[key].length;
  console.log(`qiniu/nodejs-sdk test suite against the storage emulator (${Math.round((Date.now() - started) / 1000)} s)`);
  console.table(Object.fromEntries([...byFile].sort()));
  console.log(`total: ${total('passes')} passed, ${total('failures')} failed, ${total('pending')} pending`);
  for (const test of result.failures) console.log(`  ✗ ${test.title}\n      ${test.message.split('\n')[0].slice(0, 240)}`);
} finally {
  emulator.kill('SIGTERM');
  if (!values.keep) rmSync(work, { recursive: true, force: true });
  else console.log(`kept: ${work}`);
}
