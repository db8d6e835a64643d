import type { Session } from 'electron';

// The console needs no camera, microphone, location or notifications of the desktop itself:
// video comes from the relay. Fullscreen (for camera tiles) is the one permission granted.
const ALLOWED = new Set(['fullscreen']);

export function lockPermissions(session: Session): void {
  session.setPermissionRequestHandler((_contents, permission, callback) => callback(ALLOWED.has(permission)));
  session.setPermissionCheckHandler((_contents, permission) => ALLOWED.has(permission));
}
