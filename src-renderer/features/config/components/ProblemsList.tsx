import { Badge, Group, Text, UnstyledButton } from '@mantine/core';
import { problemPlace, problemText, type ConfigProblem } from '../model/problems';

/** Every problem the relay found, each a button that puts the cursor on it. */
export function ProblemsList({
  problems,
  checking,
  onJump,
}: {
  problems: ConfigProblem[];
  checking: boolean;
  onJump(problem: ConfigProblem): void;
}) {
  return (
    <section aria-labelledby="problems-title" className="config-problems" aria-live="polite">
      <Group gap="xs" mb={4}>
        <Text id="problems-title" fw={600} size="sm">
          Problems
        </Text>
        <Badge variant="dot" color={problems.some((p) => p.severity === 'error') ? 'red' : problems.length ? 'yellow' : 'green'}>
          {problems.length}
        </Badge>
        {checking ? (
          <Text size="xs" c="dimmed">
            checking…
          </Text>
        ) : null}
      </Group>
      {problems.length === 0 ? (
        <Text size="sm" c="dimmed" data-testid="no-problems">
          The relay accepts this file.
        </Text>
      ) : (
        <ul className="problem-list" data-testid="problems">
          {problems.map((problem, index) => (
            <li key={`${index}-${problem.message}`}>
              <UnstyledButton onClick={() => onJump(problem)} className="problem" data-severity={problem.severity}>
                <Badge size="sm" variant="dot" color={problem.severity === 'error' ? 'red' : 'yellow'}>
                  {problem.severity}
                </Badge>
                <span className="problem-place">{problemPlace(problem)}</span>
                <span>{problemText(problem)}</span>
              </UnstyledButton>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
