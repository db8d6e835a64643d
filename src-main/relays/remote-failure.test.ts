import { describe, expect, it } from 'vitest';
import { ContractFailure } from '@shared/contract/result';
import { codeOfStatus, expectOk, remoteFailure } from './remote-failure';
import { RelayHttpError } from './relay-http';
import { RemoteAnswerError } from './remote-answers';

describe('remote relay failures as contract errors', () => {
  it('maps the relay statuses to what the caller can do about them', () => {
    expect([400, 401, 403, 404, 409, 500, 502, undefined].map(codeOfStatus)).toEqual([
      'invalid_input',
      'unauthenticated',
      'forbidden',
      'not_found',
      'conflict',
      'unavailable',
      'unavailable',
      'unavailable',
    ]);
  });

  it('names the relay and keeps its message, with source logins masked', () => {
    const refused = remoteFailure('north', new RelayHttpError('connection refused'));
    expect(refused).toMatchObject({ code: 'unavailable', message: 'relay north: connection refused' });
    expect(remoteFailure('north', new RemoteAnswerError('its /api is not a JSON object')).code).toBe('unavailable');
    const failure = (() => {
      try {
        expectOk('south', { status: 400, text: 'streams: source not supported: rtsp://admin:hunter2@cam/1 (bad)\nmore' });
      } catch (error) {
        return error as ContractFailure;
      }
    })();
    expect(failure).toBeInstanceOf(ContractFailure);
    expect(failure?.code).toBe('invalid_input');
    expect(failure?.message).toBe('relay south: HTTP 400: streams: source not supported: rtsp://***@cam/1 (bad)');
    expect(expectOk('south', { status: 200, text: '' }).status).toBe(200);
  });
});
