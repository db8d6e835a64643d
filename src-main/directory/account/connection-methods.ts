import {
  CONFIG_CONNECTION_ID,
  type directoryAccountService,
  type DirectoryConnectionEntry,
  type DirectoryConnectionInfo,
  type SignInStatus,
} from '@shared/contract/directory-accounts';
import type { ServiceImpl } from '@shared/contract/define-service';
import { ContractFailure } from '@shared/contract/result';
import { CaFileError, readCaFile } from '../client/connection-trust';
import { tenantInfo, UnknownConnectionError, type DirectoryConnections } from './directory-connections';

type ConnectionMethods = Pick<ServiceImpl<typeof directoryAccountService>, 'connections' | 'addTenant' | 'removeTenant' | 'useConnection'>;

export interface ConnectionMethodsDeps {
  connections: DirectoryConnections;
  /** The config file's connection as it would open (the emulator's demo account or `directory.graph`), without signing in. */
  configInfo(): Promise<DirectoryConnectionInfo>;
  /** Moves the directory pages and the calendar sync to another connection; answers its sign-in status. */
  switchTo(id: string): Promise<SignInStatus>;
  /** Gets an app-only token with a tenant's client secret, so a tenant that refuses it is never kept. */
  tryClientSecret(section: unknown): Promise<void>;
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Adding, removing and switching directory connections (the `directoryAccount` service's second half). */
export function createConnectionMethods(deps: ConnectionMethodsDeps): ConnectionMethods {
  const { connections } = deps;
  const activeId = async () => (await connections.active()).id;

  const configEntry = async (active: boolean): Promise<DirectoryConnectionEntry> => {
    try {
      const info = await deps.configInfo();
      const name = info.mode === 'emulator' ? 'Built-in Graph emulator' : `Config file: ${info.tenant}`;
      return { id: CONFIG_CONNECTION_ID, name, source: 'config', active, info, problem: null };
    } catch (error) {
      return { id: CONFIG_CONNECTION_ID, name: 'Config file', source: 'config', active, info: null, problem: message(error) };
    }
  };

  return {
    async connections() {
      const active = await activeId();
      const tenants = await connections.tenants();
      return [
        await configEntry(active === CONFIG_CONNECTION_ID),
        ...tenants.map((tenant): DirectoryConnectionEntry => ({
          id: tenant.id,
          name: tenant.name,
          source: 'added',
          active: active === tenant.id,
          info: tenantInfo(tenant),
          problem: null,
        })),
      ];
    },
    async addTenant(tenant) {
      const known = await connections.tenants();
      if (
        known.some(
          (t) =>
            t.tenant.toLowerCase() === tenant.tenant.toLowerCase() &&
            t.clientId.toLowerCase() === tenant.clientId.toLowerCase() &&
            t.signIn === tenant.signIn,
        )
      ) {
        throw new ContractFailure('conflict', `this tenant is already added with the same application and sign-in (${tenant.tenant})`);
      }
      if (tenant.caFile) {
        try {
          await readCaFile(tenant.caFile);
        } catch (error) {
          if (!(error instanceof CaFileError)) throw error;
          // At the form's field, in the words of the problem: a proxy's CA that trusted nothing would surface later as an unexplained TLS error.
          throw new ContractFailure('invalid_input', `the tenant was not added: ${error.message}`, {
            problems: [{ path: 'caFile', code: error.reason, message: error.message }],
          });
        }
      }
      if (tenant.signIn === 'clientCredentials') {
        try {
          await deps.tryClientSecret(connections.sectionOf({ ...tenant, name: tenant.name || tenant.tenant }, tenant.clientSecret));
        } catch (error) {
          throw new ContractFailure(
            'invalid_input',
            `the tenant was not added: no app-only token with this application and secret: ${message(error)}`,
          );
        }
      }
      const stored = await connections.add(tenant);
      await deps.switchTo(stored.id);
      return { id: stored.id, name: stored.name, source: 'added', active: true, info: tenantInfo(stored), problem: null };
    },
    async removeTenant({ id }) {
      if (id === CONFIG_CONNECTION_ID)
        throw new ContractFailure(
          'invalid_input',
          "the config file's connection is changed in the config file's directory section, not removed here",
        );
      if (!(await connections.tenants()).some((t) => t.id === id)) throw new ContractFailure('not_found', `no added tenant ${id}`);
      // Its calendar copy and sign-in cache are closed before their folder goes.
      if ((await activeId()) === id) await deps.switchTo(CONFIG_CONNECTION_ID);
      await connections.remove(id);
    },
    async useConnection({ id }) {
      try {
        return await deps.switchTo(id);
      } catch (error) {
        if (error instanceof UnknownConnectionError) throw new ContractFailure('not_found', error.message);
        throw error;
      }
    },
  };
}
