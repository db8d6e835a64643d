/**
 * go2rtc-style `${NAME}` and `${NAME:default}` substitution on the config text.
 * A variable that is unset and has no default is left as written, so the user sees what is missing.
 */
export function substituteEnv(text: string, env: Record<string, string | undefined>): string {
  return text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::([^}]*))?\}/g, (whole, name: string, fallback?: string) => {
    const value = env[name];
    if (value !== undefined) return value;
    if (fallback !== undefined) return fallback;
    return whole;
  });
}
