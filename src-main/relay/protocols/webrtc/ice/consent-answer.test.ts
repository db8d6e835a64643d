import { classes, Message, methods, parseMessage } from 'werift';
import { describe, expect, it } from 'vitest';
import { consentAnswer, readdressedAnswer } from './consent-answer';

const PASSWORD = Buffer.from('relays-ice-password-of-22');
const FROM = { address32: 0xc0a80117, port: 54321 }; // 192.168.1.23

/** A consent check as a browser sends it, made by werift's own STUN code. */
function check(options: { password?: Buffer; controlled?: boolean; fingerprint?: boolean } = {}): Buffer {
  const message = new Message(methods.BINDING, classes.REQUEST)
    .setAttribute('USERNAME', 'relayufrag:viewerufrag')
    .setAttribute('PRIORITY', 1845501695);
  if (options.controlled) message.setAttribute('ICE-CONTROLLED', 5n);
  else message.setAttribute('ICE-CONTROLLING', 7n).setAttribute('USE-CANDIDATE', null);
  message.addMessageIntegrity(options.password ?? PASSWORD);
  if (options.fingerprint !== false) message.addFingerprint();
  return message.bytes;
}

describe('consentAnswer', () => {
  it("answers a check with the viewer's address, authenticated, as werift reads it", () => {
    const request = check();
    const answer = consentAnswer(request, PASSWORD, FROM)!;
    // werift checks MESSAGE-INTEGRITY with the key and FINGERPRINT, and returns undefined if either is wrong.
    const parsed = parseMessage(answer, PASSWORD)!;
    expect(parsed.messageMethod).toBe(methods.BINDING);
    expect(parsed.messageClass).toBe(classes.RESPONSE);
    expect(parsed.transactionId.equals(request.subarray(8, 20))).toBe(true);
    expect(parsed.getAttributeValue('XOR-MAPPED-ADDRESS')).toEqual(['192.168.1.23', 54321]);
    expect(parseMessage(answer, Buffer.from('another password'))).toBeUndefined();
  });

  it('answers a check without FINGERPRINT too', () => {
    expect(consentAnswer(check({ fingerprint: false }), PASSWORD, FROM)).toBeDefined();
  });

  it('leaves to werift what is not an authentic check, or asks more than an answer', () => {
    expect(consentAnswer(check({ password: Buffer.from('guessed') }), PASSWORD, FROM)).toBeUndefined();
    expect(consentAnswer(check({ controlled: true }), PASSWORD, FROM)).toBeUndefined();
    const tampered = check();
    tampered[tampered.length - 30]! ^= 1;
    expect(consentAnswer(tampered, PASSWORD, FROM)).toBeUndefined();
    const unsigned = new Message(methods.BINDING, classes.REQUEST).setAttribute('USERNAME', 'relayufrag:viewerufrag').bytes;
    expect(consentAnswer(unsigned, PASSWORD, FROM)).toBeUndefined();
    const response = new Message(methods.BINDING, classes.RESPONSE).addMessageIntegrity(PASSWORD).bytes;
    expect(consentAnswer(response, PASSWORD, FROM)).toBeUndefined();
    expect(consentAnswer(check().subarray(0, 40), PASSWORD, FROM)).toBeUndefined();
  });
});

describe('readdressedAnswer', () => {
  it("gives werift's answer from behind the loopback bridge the viewer's own address, signed again, in the same transaction", () => {
    const request = check();
    const fromWerift = new Message(methods.BINDING, classes.RESPONSE, request.subarray(8, 20))
      .setAttribute('XOR-MAPPED-ADDRESS', ['127.0.0.1', 40123])
      .addMessageIntegrity(PASSWORD)
      .addFingerprint().bytes;
    const parsed = parseMessage(readdressedAnswer(fromWerift, PASSWORD, FROM)!, PASSWORD)!;
    expect(parsed.messageClass).toBe(classes.RESPONSE);
    expect(parsed.transactionId.equals(request.subarray(8, 20))).toBe(true);
    expect(parsed.getAttributeValue('XOR-MAPPED-ADDRESS')).toEqual(['192.168.1.23', 54321]);
  });

  it('leaves what is not a binding success response as werift made it', () => {
    expect(readdressedAnswer(check(), PASSWORD, FROM)).toBeUndefined();
    const conflict = new Message(methods.BINDING, classes.ERROR).setAttribute('ERROR-CODE', [487, 'Role Conflict']).bytes;
    expect(readdressedAnswer(conflict, PASSWORD, FROM)).toBeUndefined();
    expect(readdressedAnswer(Buffer.from([22, 0xfe, 0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0]), PASSWORD, FROM)).toBeUndefined();
    expect(readdressedAnswer(Buffer.alloc(10), PASSWORD, FROM)).toBeUndefined();
  });
});
