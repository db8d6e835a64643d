import type { BatchItem } from '@shared/contract/storage';
import type { BatchTarget } from './selection';

/** The one dialog the bucket browser has open, and what it acts on. */
export type BrowserDialog =
  | { kind: 'delete'; target: BatchTarget }
  | { kind: 'rename'; item: BatchItem }
  | { kind: 'move' | 'copy'; target: BatchTarget }
  | { kind: 'folder' }
  | undefined;

/** A key as a batch item: a key ending in / is a folder. */
export const itemOf = (key: string): BatchItem => ({ key, folder: key.endsWith('/') });

/** Why a typed name cannot be a file or folder name, or undefined when it can. */
export const nameProblem = (name: string) =>
  name === '' ? 'type a name' : name.includes('/') ? 'a name cannot contain /' : name.length > 1024 ? 'at most 1024 characters' : undefined;
