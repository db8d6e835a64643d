import fc from 'fast-check';
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { fuzzCases, fuzzTimeout } from '@main/test-support/fuzz-budget';
import { damagedSample } from '@main/test-support/fuzz-inputs';
import { probeMatchSource } from '../discovery/ws-discovery';
import { profileTokens } from './onvif-client';
import { elementText, requestAction } from './soap';
import { createWsSecurityCheck } from './ws-security';

// The ONVIF server reads SOAP from anyone on the network before any login, and the client reads
// whatever a camera (or something posing as one) answers. All of it is read with regular
// expressions: any input must give a value quickly (no catastrophic backtracking), never throw.

const REQUEST = `<?xml version="1.0" encoding="UTF-8"?><s:Envelope xmlns:s="http://www.w3.org/2003/05/soap-envelope"><s:Header><wsse:Security xmlns:wsse="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd" xmlns:wsu="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd"><wsse:UsernameToken><wsse:Username>admin</wsse:Username><wsse:Password Type="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-username-token-profile-1.0#PasswordDigest">tuOSpGlFlIXsozq4HFNeeGeFLEI=</wsse:Password><wsse:Nonce EncodingType="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-soap-message-security-1.0#Base64Binary">LKqI6G/AikKCQrN0zqZFlg==</wsse:Nonce><wsu:Created>2026-11-26T10:00:00.000Z</wsu:Created></wsse:UsernameToken></wsse:Security></s:Header><s:Body><GetProfile xmlns="http://www.onvif.org/ver10/media/wsdl"><ProfileToken>garden&amp;porch</ProfileToken></GetProfile></s:Body></s:Envelope>`;
const PROFILES = `<s:Envelope xmlns:s="http://www.w3.org/2003/05/soap-envelope"><s:Body><trt:GetProfilesResponse><trt:Profiles token="main" fixed="true"><tt:Name>main</tt:Name></trt:Profiles><trt:Profiles token="sub"><tt:Name>sub</tt:Name></trt:Profiles></trt:GetProfilesResponse></s:Body></s:Envelope>`;
const PROBE_MATCH = `<s:Envelope><s:Body><d:ProbeMatches><d:ProbeMatch><a:EndpointReference><a:Address>urn:uuid:1</a:Address></a:EndpointReference><d:Types>dn:NetworkVideoTransmitter</d:Types><d:Scopes>onvif://www.onvif.org/name/Garage onvif://www.onvif.org/hardware/IPC-1</d:Scopes><d:XAddrs>http://192.0.2.10/onvif/device_service http://[fe80::1]/onvif/device_service</d:XAddrs></d:ProbeMatch></d:ProbeMatches></s:Body></s:Envelope>`;

const xmlLike = fc.oneof(
  damagedSample([Buffer.from(REQUEST), Buffer.from(PROFILES), Buffer.from(PROBE_MATCH)], 24).map((b) => b.toString('utf8')),
  // Long runs of the characters the expressions look for: where backtracking would blow up.
  fc
    .tuple(
      fc.constantFrom(
        '<',
        '<s:',
        '<a:Body ',
        '<wsse:Security>',
        '<Password ',
        '<ProfileToken ',
        '<tt:Profiles token="',
        '<Media>',
        '<d:XAddrs ',
        '</',
        ':',
        ' token="',
        '>',
      ),
      fc.integer({ min: 1, max: 4_000 }),
      fc.constantFrom('', '>', '</x>'),
    )
    .map(([unit, n, tail]) => unit.repeat(n) + tail),
  fc.string({ maxLength: 2_000 }),
);

/** Runs `read` and fails the property when it takes longer than any request should. */
function quickly<T>(read: () => T): T {
  const started = performance.now();
  const value = read();
  expect(performance.now() - started).toBeLessThan(250);
  return value;
}

const request = (authorization?: string) => ({ headers: authorization ? { authorization } : {} }) as IncomingMessage;

describe('fuzz: ONVIF SOAP', () => {
  it(
    'the server reads an operation, a token and a login from any body, quickly, without throwing',
    () => {
      const check = createWsSecurityCheck({ username: 'admin', password: 'secret' });
      fc.assert(
        fc.property(xmlLike, fc.option(fc.string({ maxLength: 80 }), { nil: undefined }), (xml, authorization) => {
          const action = quickly(() => requestAction(xml));
          expect(action === undefined || /^[\w-]+$/.test(action)).toBe(true);
          const token = quickly(() => elementText(xml, 'ProfileToken'));
          expect(token === undefined || typeof token === 'string').toBe(true);
          const refused = quickly(() => check(request(authorization), xml, Date.parse('2026-11-26T10:00:00Z')));
          // Nothing here knows the password: every login is refused, with a reason.
          expect(typeof refused).toBe('string');
        }),
        fuzzCases(2_000),
      );
    },
    fuzzTimeout(),
  );

  it(
    'the client reads profiles and discovery answers from anything a device sends, quickly, without throwing',
    () => {
      fc.assert(
        fc.property(xmlLike, (xml) => {
          const tokens = quickly(() => profileTokens(xml));
          expect(tokens.every((t) => typeof t === 'string' && t.length > 0)).toBe(true);
          const found = quickly(() => probeMatchSource(xml, { address: '192.0.2.10', family: 'IPv4', port: 3702, size: xml.length }));
          if (found) expect(found.url).toMatch(/^onvif:\/\/user:pass@/);
        }),
        fuzzCases(2_000),
      );
    },
    fuzzTimeout(),
  );
});
