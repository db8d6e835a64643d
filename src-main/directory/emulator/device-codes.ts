import { randomBytes, randomInt } from 'node:crypto';

export type DeviceCodeState =
  { status: 'pending' } | { status: 'approved'; userId: string } | { status: 'declined' } | { status: 'expired' };

interface PendingCode {
  deviceCode: string;
  userCode: string;
  clientId: string;
  scope: string;
  expiresAt: number;
  userId?: string;
  declined?: boolean;
}

/** Letters a person can type without confusing them (no I, O, 0, 1). */
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/**
 * Device code sign-ins under way (RFC 8628, as Entra runs it): a code for the device to poll
 * with and a short one for the person to type on the sign-in page. Kept in memory: a pending
 * sign-in does not outlive the emulator, as it would not outlive a real session.
 */
export class DeviceCodes {
  private readonly byDevice = new Map<string, PendingCode>();

  constructor(
    private readonly clock: () => number,
    readonly lifetimeSeconds = 900,
  ) {}

  start(clientId: string, scope: string): PendingCode {
    this.sweep();
    const userCode = Array.from({ length: 9 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
    const code: PendingCode = {
      deviceCode: randomBytes(32).toString('base64url'),
      userCode,
      clientId,
      scope,
      expiresAt: this.clock() + this.lifetimeSeconds * 1000,
    };
    this.byDevice.set(code.deviceCode, code);
    return code;
  }

  /** The pending sign-in a typed code belongs to (any case, spaces and dashes ignored). */
  byUserCode(typed: string): PendingCode | undefined {
    const wanted = typed.toUpperCase().replace(/[\s-]/g, '');
    return [...this.byDevice.values()].find((c) => c.userCode === wanted && c.expiresAt > this.clock() && !c.userId && !c.declined);
  }

  approve(code: PendingCode, userId: string): void {
    code.userId = userId;
  }

  decline(code: PendingCode): void {
    code.declined = true;
  }

  /** What the device sees when it polls; an approved or declined code is used up by the answer. */
  poll(deviceCode: string, clientId: string): { state: DeviceCodeState; scope: string } | undefined {
    const code = this.byDevice.get(deviceCode);
    if (!code || code.clientId !== clientId) return undefined;
    if (code.expiresAt <= this.clock()) {
      this.byDevice.delete(deviceCode);
      return { state: { status: 'expired' }, scope: code.scope };
    }
    if (code.declined) {
      this.byDevice.delete(deviceCode);
      return { state: { status: 'declined' }, scope: code.scope };
    }
    if (code.userId) {
      this.byDevice.delete(deviceCode);
      return { state: { status: 'approved', userId: code.userId }, scope: code.scope };
    }
    return { state: { status: 'pending' }, scope: code.scope };
  }

  private sweep(): void {
    const now = this.clock();
    for (const [key, code] of this.byDevice) if (code.expiresAt <= now) this.byDevice.delete(key);
  }
}
