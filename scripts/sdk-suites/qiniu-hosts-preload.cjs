// Loaded into the SDK's test process (mocha --require): connections to Qiniu's public host
// names go to the storage emulator instead, as a hosts file plus a port mapping would send
// them. Nothing else in the SDK or its tests is changed; TLS still checks the emulator's
// certificate (made for these names) against the CA given in NODE_EXTRA_CA_CERTS.
const http = require('node:http');
const https = require('node:https');

const port = Number(process.env.KODO_EMULATOR_PORT);
if (!port) throw new Error('KODO_EMULATOR_PORT is not set');
const suffixes = (process.env.KODO_EMULATOR_HOSTS || '').split(',').filter(Boolean);
// `.example.com` stands for every name under it; anything else for itself.
const redirected = (host) =>
  typeof host === 'string' && suffixes.some((name) => (name.startsWith('.') ? host.endsWith(name) : host === name));

for (const Agent of [http.Agent, https.Agent]) {
  const create = Agent.prototype.createConnection;
  Agent.prototype.createConnection = function createConnection(options, callback) {
    if (!redirected(options.host)) return create.call(this, options, callback);
    return create.call(this, { ...options, host: '127.0.0.1', port, servername: options.servername || options.host }, callback);
  };
}
