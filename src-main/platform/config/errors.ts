/** A config text that is not valid YAML (or not a mapping): says where, so the user can fix it. */
export class ConfigSyntaxError extends Error {
  constructor(
    readonly reason: string,
    readonly line?: number,
    readonly column?: number,
  ) {
    super(line !== undefined ? `${reason} (line ${line}, column ${column ?? 1})` : reason);
    this.name = 'ConfigSyntaxError';
  }

  /** The same error, naming the file it is in: `config /etc/rc.yaml: invalid YAML: ... (line 3, column 1)`. */
  inFile(path: string): ConfigSyntaxError {
    return new ConfigSyntaxError(`config ${path}: ${this.reason}`, this.line, this.column);
  }
}

/** The file exists but cannot be used (missing, unreadable, wrong value types). */
export class ConfigFileError extends Error {
  override name = 'ConfigFileError';
}
