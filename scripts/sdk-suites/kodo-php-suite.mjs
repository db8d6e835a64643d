// Runs the qiniu PHP SDK's own PHPUnit suite (a checkout of github.com/qiniu/php-sdk) against the
// storage emulator, and prints what passed, per test file.
//
//   npm run sdk-suite:kodo-php -- --sdk ../php-sdk --enum ../php-enum [--keep]
//
// Needs php-cli, php-curl, php-xml and phpunit (Debian packages) and a checkout of
// github.com/myclabs/php-enum, the SDK's one dependency (Composer is not used: the run loads it
// from the checkout). The emulator runs from dist/ with https on; the suite's requests to
// Qiniu's host names reach it through a local forward proxy (curl's http_proxy/https_proxy) and
// PHP's curl trusts the emulator's CA (curl.cainfo). The SDK's own mock server (tests/mock-server)
// runs as its CI runs it. Nothing in the checkouts is changed.
import { execFile, execFileSync, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { freePort, startStorageEmulator } from './suite-kit.mjs';
import { startHostProxy } from './qiniu-host-proxy.mjs';
import { exifJpeg } from './sample-exif.mjs';

const { values } = parseArgs({
  options: { sdk: { type: 'string' }, enum: { type: 'string' }, keep: { type: 'boolean', default: false }, filter: { type: 'string' } },
});
if (
  !values.sdk ||
  !existsSync(join(values.sdk, 'tests', 'bootstrap.php')) ||
  !values.enum ||
  !existsSync(join(values.enum, 'src', 'Enum.php'))
) {
  console.error('usage: npm run sdk-suite:kodo-php -- --sdk <checkout of qiniu/php-sdk> --enum <checkout of myclabs/php-enum>');
  process.exit(2);
}
const sdk = resolve(values.sdk);
const enumDir = resolve(values.enum);
// Qiniu's service host names (a leading dot: every name under it). The fake names the retry
// tests expect not to resolve (fake.phpsdk.qiniu.com) stay outside.
const QINIU_HOSTS = [
  '.qiniuapi.com',
  '.qbox.me',
  '.qiniup.com',
  '.qiniucs.com',
  '.qiniudn.com',
  '.clouddn.com',
  'upload.qiniu.com',
  'up.qiniu.com',
  'rs.qiniu.com',
  'rsf.qiniu.com',
  'api.qiniu.com',
  'uc.qiniu.com',
  'sdk.peterpy.cn',
];
const ACCESS_KEY = 'sdk-suite-access-key';
const SECRET_KEY = 'sdk-suite-secret-key';
const BUCKET = 'sdk-suite';
const DOMAIN = 'sdk-suite.clouddn.com';
// The buckets the suite's bootstrap names, in the regions its zone tests expect.
const REGION_BUCKETS = [
  ['phpsdk-bc', 'z1'],
  ['phpsdk-na', 'na0'],
  ['phpsdk-fs', 'z2'],
  ['phpsdk-as', 'as0'],
];

const work = mkdtempSync(join(tmpdir(), 'kodo-php-suite-'));
const port = await freePort();
const bucketYaml = (name, region, domains) =>
  `          - name: ${name}\n            region: ${region}\n            domains: [${domains.join(', ')}]`;
writeFileSync(
  join(work, 'relay.yaml'),
  [
    `data_dir: ${JSON.stringify(join(work, 'data'))}`,
    'log:\n  level: error',
    'storage:',
    '  emulator:',
    `    listen: 127.0.0.1:${port}`,
    `    tls:\n      names: [${QINIU_HOSTS.map((h) => (h.startsWith('.') ? `"*${h}"` : h)).join(', ')}]`,
    '    region_hosts: qiniu',
    // The workflow template the pfop suite starts with.
    '    workflows:\n      test-workflow: avinfo',
    '    accounts:',
    `      - access_key: ${ACCESS_KEY}`,
    `        secret_key: ${SECRET_KEY}`,
    '        dir_refresh: true',
    '        buckets:',
    bucketYaml(BUCKET, 'z0', [DOMAIN, 'sdk.peterpy.cn']),
    // The pfop suite processes its clip in a bucket it names itself.
    bucketYaml('testres', 'z0', ['testres.qiniudn.com']),
    ...REGION_BUCKETS.map(([name, region]) => bucketYaml(name, region, [`${name}.clouddn.com`])),
    '',
  ].join('\n'),
);
const emulator = await startStorageEmulator(join(work, 'relay.yaml'));
const proxy = await startHostProxy({ port, names: QINIU_HOSTS });
const mockPort = 9000;
const mock = spawn('php', ['-S', `localhost:${mockPort}`, '-t', join(sdk, 'tests', 'mock-server')], { stdio: 'ignore' });
const ca = join(work, 'data', 'storage', 'tls', 'ca.pem');
const env = {
  ...process.env,
  QINIU_ACCESS_KEY: ACCESS_KEY,
  QINIU_SECRET_KEY: SECRET_KEY,
  QINIU_TEST_BUCKET: BUCKET,
  QINIU_TEST_DOMAIN: DOMAIN,
  http_proxy: `http://127.0.0.1:${proxy.port}`,
  https_proxy: `http://127.0.0.1:${proxy.port}`,
  HTTPS_PROXY: `http://127.0.0.1:${proxy.port}`,
  no_proxy: 'localhost,127.0.0.1',
  TMPDIR: join(work, 'tmp'),
};
mkdirSync(env.TMPDIR);

try {
  // The objects the suite reads: images (one with EXIF), a clip it transcodes; uploaded with the SDK itself.
  const media = join(work, 'media');
  mkdirSync(media);
  execFileSync('ffmpeg', ['-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc=size=320x240', '-frames:v', '1', join(media, 'logo.png')]);
  execFileSync('ffmpeg', ['-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc=size=320x240', '-frames:v', '1', join(media, 'plain.jpg')]);
  writeFileSync(join(media, 'exif.jpg'), exifJpeg(readFileSync(join(media, 'plain.jpg')), 'Relay Console test camera'));
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
    join(media, 'clip.mp4'),
  ]);
  writeFileSync(join(media, 'page.html'), '<!doctype html><title>php-sdk</title><p>Qiniu PHP SDK</p>\n');
  // The suite's own bucket holds more than a page of its list tests (10 entries).
  const fillers = Array.from({ length: 12 }, (_, i) => [`fixtures/file-${String(i).padStart(2, '0')}.txt`, 'page.html']);
  const seeds = [
    ['php-sdk.html', 'page.html'],
    ['sdktest.png', 'logo.png'],
    ...fillers,
    ['php-logo.png', 'logo.png'],
    ['qiniu.png', 'logo.png'],
    ['niu.jpg', 'plain.jpg'],
    ['noexif.jpg', 'plain.jpg'],
    ['gogopher.jpg', 'exif.jpg'],
    ['sintel_trailer.mp4', 'clip.mp4'],
  ];
  const seedScript = `<?php
require ${JSON.stringify(join(work, 'autoload.php'))};
$auth = new Qiniu\\Auth(getenv('QINIU_ACCESS_KEY'), getenv('QINIU_SECRET_KEY'));
$up = new Qiniu\\Storage\\UploadManager();
foreach (json_decode($argv[1], true) as $target => $file) {
  list($bucket, $key) = explode(':', $target, 2);
  list($ret, $err) = $up->putFile($auth->uploadToken($bucket, $key), $key, $file);
  if ($err !== null) { fwrite(STDERR, $key . ': ' . $err->message() . "\\n"); exit(1); }
}`;
  // PSR-4 loading of the SDK's one dependency from its checkout, then the SDK's own autoload.
  writeFileSync(
    join(work, 'autoload.php'),
    `<?php
spl_autoload_register(function ($class) {
  $prefix = 'MyCLabs\\\\Enum\\\\';
  if (strncmp($class, $prefix, strlen($prefix)) !== 0) return;
  $file = ${JSON.stringify(join(enumDir, 'src'))} . '/' . str_replace('\\\\', '/', substr($class, strlen($prefix))) . '.php';
  if (file_exists($file)) require $file;
});
require ${JSON.stringify(join(sdk, 'autoload.php'))};
`,
  );
  writeFileSync(
    join(work, 'bootstrap.php'),
    `<?php\nrequire ${JSON.stringify(join(work, 'autoload.php'))};\nrequire ${JSON.stringify(join(sdk, 'tests', 'bootstrap.php'))};\n`,
  );
  writeFileSync(join(work, 'seed.php'), seedScript);
  const phpIni = ['-d', `curl.cainfo=${ca}`, '-d', 'memory_limit=2G'];
  // The proxy runs in this process: PHP is run without blocking its event loop.
  const run = promisify(execFile);
  await run(
    'php',
    [
      ...phpIni,
      join(work, 'seed.php'),
      JSON.stringify(
        Object.fromEntries([
          ...seeds.map(([key, file]) => [`${BUCKET}:${key}`, join(media, file)]),
          ['testres:sintel_trailer.mp4', join(media, 'clip.mp4')],
          ['testres:qiniu.png', join(media, 'logo.png')],
        ]),
      ),
    ],
    { env },
  );

  const junit = join(work, 'junit.xml');
  const started = Date.now();
  try {
    await run(
      'php',
      [
        ...phpIni,
        '/usr/bin/phpunit',
        '--bootstrap',
        join(work, 'bootstrap.php'),
        '--log-junit',
        junit,
        ...(values.filter ? ['--filter', values.filter] : []),
        join(sdk, 'tests'),
      ],
      { cwd: sdk, env, maxBuffer: 64 * 1024 * 1024 },
    );
  } catch {
    // phpunit exits non-zero when a test fails; the report says which.
  }
  const xml = readFileSync(junit, 'utf8');
  const byFile = new Map();
  const failures = [];
  for (const m of xml.matchAll(/<testcase name="([^"]+)" class="([^"]+)"[^>]*?(\/>|>([\s\S]*?)<\/testcase>)/g)) {
    const file = m[2].split('\\').pop();
    const row = byFile.get(file) ?? { passed: 0, failed: 0, skipped: 0 };
    const body = m[4] ?? '';
    if (/<(failure|error)/.test(body)) {
      row.failed += 1;
      const message = /<(?:failure|error)[^>]*>([\s\S]*?)<\/(?:failure|error)>/.exec(body)?.[1] ?? '';
      failures.push(
        `${file}::${m[1]}\n      ${message
          .replace(/&quot;/g, '"')
          .replace(/&#039;/g, "'")
          .replace(/&lt;/g, '<')
          .replace(/&gt;/g, '>')
          .replace(/&amp;/g, '&')
          .split('\n')
          .slice(0, 3)
          .join(' | ')
          .slice(0, 300)}`,
      );
    } else if (/<skipped/.test(body)) row.skipped += 1;
    else row.passed += 1;
    byFile.set(file, row);
  }
  const total = (key) => [...byFile.values()].reduce((sum, row) => sum + row[key], 0);
  console.log(`qiniu/php-sdk test suite against the storage emulator (${Math.round((Date.now() - started) / 1000)} s)`);
  console.table(Object.fromEntries([...byFile].sort()));
  console.log(`total: ${total('passed')} passed, ${total('failed')} failed, ${total('skipped')} skipped`);
  for (const failure of failures) console.log(`  ✗ ${failure}`);
} finally {
  mock.kill('SIGTERM');
  proxy.close();
  emulator.kill('SIGTERM');
  if (!values.keep) rmSync(work, { recursive: true, force: true });
  else console.log(`kept: ${work}`);
}
