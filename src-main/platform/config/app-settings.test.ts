import { describe, expect, it } from 'vitest';
import { listenProblem, parseListen, readAppSettings } from './app-settings';
import { defaultConfigPath, userDataDir } from './default-paths';

const linux = { platform: 'linux' as const, env: {}, homedir: '/home/ana' };

describe('app settings', () => {
  it('resolves data_dir against the config file and defaults to the OS data folder', () => {
    expect(readAppSettings({ data_dir: './state' }, '/etc/rc/relay-console.yaml', linux).dataDir).toBe('/etc/rc/state');
    expect(readAppSettings({ data_dir: '/var/lib/rc' }, '/etc/rc/c.yaml', linux).dataDir).toBe('/var/lib/rc');
    expect(readAppSettings({}, '/etc/rc/c.yaml', linux).dataDir).toBe('/home/ana/.local/share/relay-console');
    expect(userDataDir({ ...linux, env: { XDG_DATA_HOME: '/xdg' } })).toBe('/xdg/relay-console');
    expect(defaultConfigPath(linux)).toBe('/home/ana/.config/relay-console/relay-console.yaml');
    expect(
      defaultConfigPath({ platform: 'win32', env: { APPDATA: 'C:\\Users\\ana\\AppData\\Roaming' }, homedir: 'C:\\Users\\ana' }),
    ).toContain('Relay Console');
  });

  it('listens on 127.0.0.1:1984 unless configured', () => {
    expect(readAppSettings({}, '/c.yaml', linux).api).toMatchObject({ host: '127.0.0.1', port: 1984 });
    expect(parseListen(':1984')).toEqual({ host: '0.0.0.0', port: 1984 });
    expect(parseListen('[::1]:8080')).toEqual({ host: '::1', port: 8080 });
  });

  it('names the bad key', () => {
    expect(() => readAppSettings({ api: { listen: 'everywhere' } }, '/c.yaml', linux)).toThrow(/api\.listen: expected host:port/);
    expect(() => readAppSettings({ log: { level: 'loud' } }, '/c.yaml', linux)).toThrow(/log\.level/);
  });

  it('says in a sentence what is wrong with a listen address, config and --listen alike', () => {
    expect(listenProblem('127.0.0.1:1984')).toBeUndefined();
    expect(listenProblem(':0')).toBeUndefined();
    expect(listenProblem('[::1]:8554')).toBeUndefined();
    expect(listenProblem('nonsense')).toBe('expected host:port, e.g. 127.0.0.1:1984 or :1984');
    expect(listenProblem('127.0.0.1:http')).toBe('the port must be a number, e.g. 127.0.0.1:1984 (got "http")');
    expect(listenProblem('127.0.0.1:99999')).toBe('the port must be 0-65535 (got 99999)');
    expect(() => readAppSettings({ api: { listen: '127.0.0.1:70000' } }, '/c.yaml', linux)).toThrow(
      'config /c.yaml: api.listen: the port must be 0-65535 (got 70000)',
    );
  });
});
