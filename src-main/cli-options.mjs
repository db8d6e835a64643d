// The command line of `npm start`, `npm run serve` and the headless entry, in plain JavaScript
// (typed by cli-options.d.mts) so `npm start -- --help` answers before anything is built.
import { parseArgs } from 'node:util';
import { nearestName } from './platform/nearest-name.mjs';

/** Every option, once: parsing, the help text and the "valid options" list come from here. */
const CONSOLE_OPTIONS = {
  config: {
    type: 'string',
    short: 'c',
    value: '<file>',
    help: 'config file (default: relay-console.yaml in your config folder)',
  },
  listen: {
    type: 'string',
    value: '<host:port>',
    help: 'serve console and API here, not on api.listen (port 0: a free one)',
  },
  headless: { type: 'boolean', help: 'open no window even where Electron is installed' },
  help: { type: 'boolean', short: 'h', help: 'print this help and exit' },
};

/** A command line that cannot be obeyed; the message says what to type instead. */
export class UsageError extends Error {
  name = 'UsageError';
}

const flag = (name) => `--${name}`;
const spelled = (name, option) => (option.value ? `${flag(name)} ${option.value}` : flag(name));
const validOptions = () =>
  Object.entries(CONSOLE_OPTIONS)
    .map(([name, option]) => spelled(name, option))
    .join(', ');

/** node:util's parse errors, as sentences that list what is valid. */
function usageMessage(error) {
  const quoted = /'([^']+)'/.exec(error.message)?.[1] ?? '';
  if (error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const name = quoted.replace(/^-+/, '').split('=')[0];
    const near = nearestName(name, Object.keys(CONSOLE_OPTIONS));
    return `unknown option ${quoted}${near ? ` (did you mean ${flag(near)}?)` : ''}; valid options: ${validOptions()}`;
  }
  if (error.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    const entry = Object.entries(CONSOLE_OPTIONS).find(([name]) => quoted.includes(flag(name)));
    if (!entry) return `${error.message}; valid options: ${validOptions()}`;
    const [name, option] = entry;
    return option.value ? `${flag(name)} needs a value: ${spelled(name, option)}` : `${flag(name)} takes no value`;
  }
  if (error.code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
    return `unexpected argument ${quoted || error.message}; valid options: ${validOptions()}`;
  }
  return error.message;
}

/**
 * Parses the options; throws UsageError with a sentence for an unknown flag, a missing value or a
 * stray argument. `strict: false` (Electron, whose command line also carries Chromium switches)
 * keeps the known options and ignores the rest.
 */
export function parseCommandLine(args, { strict = true } = {}) {
  const options = Object.fromEntries(
    Object.entries(CONSOLE_OPTIONS).map(([name, option]) => [
      name,
      option.short ? { type: option.type, short: option.short } : { type: option.type },
    ]),
  );
  try {
    const { values } = parseArgs({ args, options, strict, allowPositionals: !strict });
    return Object.fromEntries(
      Object.entries(values).filter(([name, value]) => name in CONSOLE_OPTIONS && typeof value === CONSOLE_OPTIONS[name].type),
    );
  } catch (error) {
    throw new UsageError(usageMessage(error));
  }
}

/** What `--help` prints. */
export function helpText() {
  const rows = Object.entries(CONSOLE_OPTIONS).map(([name, option]) => [
    `${option.short ? `-${option.short}, ` : '    '}${spelled(name, option)}`,
    option.help,
  ]);
  const width = Math.max(...rows.map(([left]) => left.length)) + 2;
  return [
    'Relay Console: a go2rtc-compatible media relay, a Graph directory and a Kodo storage console.',
    '',
    'Usage: npm start -- [options]        the desktop window where Electron is installed, else headless',
    '       npm run serve -- [options]    headless: the console at http://<api.listen>/ in any browser',
    '       node dist/main/headless.js [options]',
    '',
    'Options:',
    ...rows.map(([left, help]) => `  ${left.padEnd(width)}${help}`),
    '',
    'Ports (each set in the config file): api.listen 127.0.0.1:1984 (console and API),',
    'rtsp.listen 127.0.0.1:8554, webrtc.listen 127.0.0.1:8555 (UDP and TCP), storage.emulator.listen 127.0.0.1:1985,',
    'directory.emulator.listen 127.0.0.1:1986. SIGINT or SIGTERM stops everything and exits 0.',
  ].join('\n');
}
