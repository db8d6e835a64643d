import type { z } from 'zod';
import type { configProblemSchema } from '@shared/contract/relay';

export type ConfigProblem = z.output<typeof configProblemSchema>;

/** `line 3, column 5: api.listen: ...` — where a problem is, in words, for the list under the editor. */
export const problemPlace = (problem: ConfigProblem): string =>
  problem.line ? `line ${problem.line}${problem.column ? `, column ${problem.column}` : ''}` : 'whole file';

export const countErrors = (problems: readonly ConfigProblem[]): number => problems.filter((p) => p.severity === 'error').length;

/** The message without the `(line 3, column 5)` the YAML reader appends: the list shows the place already. */
export const problemText = (problem: ConfigProblem): string => problem.message.replace(/\s*\(line \d+, column \d+\)$/, '');
