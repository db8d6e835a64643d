import { join } from 'node:path';

export interface PlatformInfo {
  platform: NodeJS.Platform;
  env: Record<string, string | undefined>;
  homedir: string;
}

const APP_FOLDER = 'relay-console';
const APP_FOLDER_TITLE = 'Relay Console';

/** The user's config folder: XDG on Linux, Application Support on macOS, %APPDATA% on Windows. */
function userConfigDir({ platform, env, homedir }: PlatformInfo): string {
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir, 'AppData', 'Roaming'), APP_FOLDER_TITLE);
  if (platform === 'darwin') return join(homedir, 'Library', 'Application Support', APP_FOLDER_TITLE);
  return join(env.XDG_CONFIG_HOME || join(homedir, '.config'), APP_FOLDER);
}

/** The OS app-data folder, where state lives unless `data_dir` says otherwise. */
export function userDataDir({ platform, env, homedir }: PlatformInfo): string {
  if (platform === 'win32') return join(env.LOCALAPPDATA ?? join(homedir, 'AppData', 'Local'), APP_FOLDER_TITLE);
  if (platform === 'darwin') return join(homedir, 'Library', 'Application Support', APP_FOLDER_TITLE, 'data');
  return join(env.XDG_DATA_HOME || join(homedir, '.local', 'share'), APP_FOLDER);
}

export function defaultConfigPath(info: PlatformInfo): string {
  return join(userConfigDir(info), 'relay-console.yaml');
}
