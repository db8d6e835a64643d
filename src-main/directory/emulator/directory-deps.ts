import type { GraphStore } from './graph-store';
import type { Principals } from './principals';

/** What every directory route handler reads: the stored objects, who may sign in, and the clock. */
export interface DirectoryDeps {
  store: GraphStore;
  principals: Principals;
  clock: () => number;
}
