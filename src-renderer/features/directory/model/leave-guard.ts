import { parseRoute, printRoute } from '@renderer/app/routes';

// Whether a change of address leaves the page being edited. Two spellings of one place
// (`#/directory/policies/a` and `#directory/policies/a`, a trailing query) are not leaving it.

export function leavesPage(fromHash: string, toHash: string): boolean {
  return printRoute(parseRoute(fromHash)) !== printRoute(parseRoute(toHash));
}
