import { z } from 'zod';
import { relayName, relaysService, type RelayInfo } from '@shared/contract/relays';
import { ContractFailure } from '@shared/contract/result';

// The "add or change a relay" form: its fields are the contract's own rules (a relay's name, an
// http(s) address), plus the login as two fields. A login typed into the address
// (`http://admin:secret@10.0.0.5:1984`) is taken out of it, so it is sealed like a typed one and
// never shown again.

const addInput = relaysService.methods.add.input;

export const relayFormSchema = z
  .object({
    name: relayName,
    url: addInput.shape.url,
    username: z.string().trim().max(256),
    password: z.string().max(1024),
  })
  .refine((values) => values.password === '' || values.username !== '' || loginInUrl(values.url) !== undefined, {
    path: ['username'],
    message: 'a password needs a username',
  });

export type RelayFormValues = z.input<typeof relayFormSchema>;

export const EMPTY_RELAY: RelayFormValues = { name: '', url: '', username: '', password: '' };

/** The form's values for a saved relay: its password is never known here, so it starts empty (kept unless typed). */
export function relayFormValues(relay: RelayInfo): RelayFormValues {
  return { name: relay.name, url: relay.url, username: relay.username ?? '', password: '' };
}

interface Login {
  username: string;
  password: string;
}

/** The login written into an address (`http://user:pass@host`), decoded, or undefined. */
function loginInUrl(url: string): Login | undefined {
  try {
    const parsed = new URL(url.trim());
    if (!parsed.username && !parsed.password) return undefined;
    return { username: decodeURIComponent(parsed.username), password: decodeURIComponent(parsed.password) };
  } catch {
    return undefined;
  }
}

/** The address without a login in it, as typed otherwise (no trailing slash added or taken). */
export function addressWithoutLogin(url: string): string {
  const trimmed = url.trim();
  return trimmed.replace(/^(https?:\/\/)[^/@\s]*@/i, '$1');
}

/** The login the form gives: the fields first, else one written into the address. */
function formLogin(values: RelayFormValues): Login | undefined {
  const username = values.username.trim();
  if (username) return { username, password: values.password };
  return loginInUrl(values.url);
}

/** What `relays.add` and `relays.test` are sent for a new relay. */
export function toAddInput(values: RelayFormValues): { name: string; url: string; login?: Login } {
  const login = formLogin(values);
  return { name: values.name.trim(), url: addressWithoutLogin(values.url), ...(login ? { login } : {}) };
}

/** What `relays.test` is sent to try the form's address before anything is saved. */
export function toTestInput(values: RelayFormValues): { url: string; login?: Login } {
  const { url, login } = toAddInput(values);
  return login ? { url, login } : { url };
}

export interface RelayEdit {
  name: string;
  newName?: string;
  url?: string;
  /** Absent: the saved login stays; null: it is forgotten. */
  login?: Login | null;
}

/**
 * What `relays.edit` is sent: only what changed. The saved password is never shown, so an empty
 * password keeps the saved login; a cleared username forgets it; a new username needs its
 * password typed (answered as a field problem).
 */
export function toEditInput(values: RelayFormValues, saved: RelayInfo): RelayEdit | { problem: { field: 'password'; message: string } } {
  const name = values.name.trim();
  const url = addressWithoutLogin(values.url);
  const edit: RelayEdit = { name: saved.name };
  if (name !== saved.name) edit.newName = name;
  if (url !== saved.url) edit.url = url;
  const typed = formLogin(values);
  if (typed && (typed.password !== '' || loginInUrl(values.url))) edit.login = typed;
  else if (typed && typed.username !== (saved.username ?? '')) {
    return { problem: { field: 'password', message: `type the password of ${typed.username}` } };
  } else if (!typed && saved.hasLogin) edit.login = null;
  return edit;
}

/** Which field a refusal of main belongs to, so the form shows it there. */
export function relayFieldError(error: unknown): { field: 'name' | 'url' | 'password'; message: string } {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof ContractFailure && error.code === 'conflict') return { field: 'name', message };
  if (error instanceof ContractFailure && (error.code === 'unauthenticated' || error.code === 'forbidden'))
    return { field: 'password', message };
  return { field: 'url', message };
}
