// A mocha reporter (any version since 6) writing each test's outcome to KODO_SUITE_REPORT as
// JSON: the suites print responses on stdout, so the report cannot share it.
const { writeFileSync } = require('node:fs');

module.exports = function FileReporter(runner) {
  const report = { passes: [], failures: [], pending: [] };
  const entry = (test, error) => ({
    title: test.fullTitle(),
    file: test.file,
    ...(error ? { message: String(error.message ?? error) } : {}),
  });
  runner.on('pass', (test) => report.passes.push(entry(test)));
  runner.on('fail', (test, error) => report.failures.push(entry(test, error)));
  runner.on('pending', (test) => report.pending.push(entry(test)));
  runner.on('end', () => writeFileSync(process.env.KODO_SUITE_REPORT, JSON.stringify(report)));
};
