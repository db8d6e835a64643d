import type { INetworkModule, NetworkRequestOptions } from '@azure/msal-node';

// A stand-in for login.microsoftonline.com behind msal-node's own network hook, so a real
// PublicClientApplication can sign in and renew in tests with no network at all. It answers
// the three things msal asks: instance discovery, the tenant's OpenID metadata, and the token
// endpoint (authorization_code and refresh_token grants).

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

export interface FakeLoginNetwork extends INetworkModule {
  tenantId: string;
  clientId: string;
  user: { oid: string; name: string; upn: string };
  /** Token endpoint calls, with their form fields. */
  tokenRequests: Array<Record<string, string>>;
  /** Every URL msal fetched. */
  urls: string[];
  /** When set, every call fails as if offline. */
  offline: boolean;
  /** Device code flow: set when the person has typed the code and signed in on another device. */
  deviceApproved: boolean;
}

export function createFakeLoginNetwork(options: { tenantId: string; clientId: string }): FakeLoginNetwork {
  const host = 'https://login.microsoftonline.com';
  const user = { oid: '6f1c2a3b-0000-4000-8000-00000000a11c', name: 'Alex Wilber', upn: 'alex@contoso.example' };
  let issued = 0;

  const idToken = () => {
    const now = Math.floor(Date.now() / 1000);
    return `${b64url({ typ: 'JWT', alg: 'none' })}.${b64url({
      aud: options.clientId,
      iss: `${host}/${options.tenantId}/v2.0`,
      iat: now,
      nbf: now,
      exp: now + 3600,
      name: user.name,
      preferred_username: user.upn,
      oid: user.oid,
      sub: 'subject-1',
      tid: options.tenantId,
      ver: '2.0',
    })}.sig`;
  };

  const network: FakeLoginNetwork = {
    tenantId: options.tenantId,
    clientId: options.clientId,
    user,
    tokenRequests: [],
    urls: [],
    offline: false,
    deviceApproved: false,
    async sendGetRequestAsync<T>(url: string) {
      network.urls.push(url);
      if (network.offline) throw new Error('offline');
      if (url.includes('/discovery/instance')) {
        return {
          status: 200,
          headers: {},
          body: {
            tenant_discovery_endpoint: `${host}/${options.tenantId}/v2.0/.well-known/openid-configuration`,
            'api-version': '1.1',
            metadata: [
              {
                preferred_network: 'login.microsoftonline.com',
                preferred_cache: 'login.windows.net',
                aliases: ['login.microsoftonline.com', 'login.windows.net'],
              },
            ],
          } as T,
        };
      }
      if (url.includes('openid-configuration')) {
        const base = `${host}/${options.tenantId}`;
        return {
          status: 200,
          headers: {},
          body: {
            token_endpoint: `${base}/oauth2/v2.0/token`,
            authorization_endpoint: `${base}/oauth2/v2.0/authorize`,
            end_session_endpoint: `${base}/oauth2/v2.0/logout`,
            issuer: `${host}/${options.tenantId}/v2.0`,
            jwks_uri: `${base}/discovery/v2.0/keys`,
          } as T,
        };
      }
      return { status: 404, headers: {}, body: {} as T };
    },
    async sendPostRequestAsync<T>(url: string, request?: NetworkRequestOptions) {
      network.urls.push(url);
      if (network.offline) throw new Error('offline');
      const form = Object.fromEntries(new URLSearchParams(request?.body ?? ''));
      network.tokenRequests.push(form);
      // msal-node sends the short `device_code`; the standard also allows the urn.
      const grant = form.grant_type === 'urn:ietf:params:oauth:grant-type:device_code' ? 'device_code' : form.grant_type;
      if (url.endsWith('/oauth2/v2.0/devicecode')) {
        return {
          status: 200,
          headers: {},
          body: {
            device_code: 'device-1',
            user_code: 'FAKE-CODE',
            verification_uri: 'https://microsoft.com/devicelogin',
            expires_in: 900,
            interval: 1,
            message:
              'To sign in, use a web browser to open the page https://microsoft.com/devicelogin and enter the code FAKE-CODE to authenticate.',
          } as T,
        };
      }
      if (grant === 'device_code' && !network.deviceApproved) {
        return {
          status: 400,
          headers: {},
          body: {
            error: 'authorization_pending',
            error_description: 'AADSTS70016: the user has not yet signed in',
            error_codes: [70016],
          } as T,
        };
      }
      if (
        (grant === 'device_code' && form.device_code === 'device-1') ||
        (grant === 'authorization_code' && form.code === 'good-code' && form.code_verifier) ||
        (grant === 'refresh_token' && form.refresh_token?.startsWith('refresh-'))
      ) {
        issued += 1;
        return {
          status: 200,
          headers: {},
          body: {
            token_type: 'Bearer',
            scope: `${form.scope ?? ''}`,
            expires_in: 3600,
            ext_expires_in: 3600,
            access_token: `access-${issued}`,
            refresh_token: `refresh-${issued}`,
            id_token: idToken(),
            client_info: b64url({ uid: user.oid, utid: options.tenantId }),
          } as T,
        };
      }
      return {
        status: 400,
        headers: {},
        body: { error: 'invalid_grant', error_description: 'AADSTS70000: the grant is invalid', error_codes: [70000] } as T,
      };
    },
  };
  return network;
}
