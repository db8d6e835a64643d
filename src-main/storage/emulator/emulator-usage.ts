/** What `npm run storage-emulator -- --help` prints. */
export const STORAGE_EMULATOR_USAGE = `Usage: npm run storage-emulator -- --config <file.yaml>

The Kodo-compatible object storage emulator on its own (the app embeds the same service).

Options:
  -c, --config <file>  the app's YAML config file (must exist); the emulator reads data_dir,
                       log.level and storage.emulator (listen, accounts, tls, region_hosts,
                       max_clock_skew_seconds, workflows)
  -h, --help           print this help and exit

Example:
  npm run storage-emulator -- --config ./relay-console.yaml

Without storage.emulator.accounts a demo account is made; its keys are written to
<data_dir>/storage/demo-account.json. Stop with Ctrl-C. See src-main/storage/emulator/README.md.
`;

/**
 * Whether the command line asks for help: `--help` or `-h` as an option of its own (not the value
 * of --config, not after a `--` that ends the options). Checked before the service's own option
 * parsing, which knows only --config and refuses anything else.
 */
export function wantsHelp(args: readonly string[]): boolean {
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i]!;
    if (arg === '--') return false;
    if (arg === '--config' || arg === '-c') i += 1;
    else if (arg === '--help' || arg === '-h') return true;
  }
  return false;
}
