/** A config text that is not valid YAML (or not a mapping): says where, so the user can fix it. */
export class ConfigSyntaxError extends Error {
  constructor(
    message: string,
    readonly line?: number,
    readonly column?: number,
  ) {
    super(line !== undefined ? `${message} (line ${line}, column ${column ?? 1})` : message);
    this.name = 'ConfigSyntaxError';
  }
}

/** The file exists but cannot be used (missing, unreadable, wrong value types). */
export class ConfigFileError extends Error {
  override name = 'ConfigFileError';
}
