/** What `npm run directory-emulator -- --help` prints. */
export const DIRECTORY_EMULATOR_USAGE = `Usage: npm run directory-emulator -- --config <file.yaml>

A local Microsoft Graph v1.0 and Entra ID token service (directory, entitlement management,
calendars), on its own, from the same config file as Relay Console.

Options:
  -c, --config <file.yaml>  the config file; the emulator reads data_dir and directory.emulator
                            (listen, tenant, domains, apps, users, demo_data, faults, tls, ...)
  -h, --help                show this help and exit

Without directory.emulator.apps or .users, demo credentials are written to
<data_dir>/directory/demo-account.json. See src-main/directory/emulator/README.md.`;

/** Whether the command line asks for help (`--help` or `-h`), wherever it stands. */
export function wantsHelp(args: readonly string[]): boolean {
  return args.some((arg) => arg === '--help' || arg === '-h');
}
