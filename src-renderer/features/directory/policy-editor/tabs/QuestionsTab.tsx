import { ActionIcon, Button, Card, Group, SegmentedControl, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { Controller, useFieldArray, useFormContext, useWatch } from 'react-hook-form';
import type { AssignmentPolicyBody, PolicyQuestion } from '@shared/contract/directory';
import { LocalizationsField } from '../fields/LocalizationsField';
import { SwitchField } from '../fields/SwitchField';
import { useFieldError } from '../fields/use-field-error';

const TEXT = '#microsoft.graph.accessPackageTextInputQuestion';
const CHOICE = '#microsoft.graph.accessPackageMultipleChoiceQuestion';

function blankQuestion(kind: typeof TEXT | typeof CHOICE, sequence: number, text = ''): PolicyQuestion {
  return kind === TEXT
    ? {
        '@odata.type': TEXT,
        text,
        sequence,
        isRequired: true,
        isAnswerEditable: true,
        isSingleLineQuestion: true,
        regexPattern: null,
        localizations: [],
      }
    : {
        '@odata.type': CHOICE,
        text,
        sequence,
        isRequired: true,
        isAnswerEditable: true,
        isMultipleSelectionAllowed: false,
        choices: [{ actualValue: '', text: '', localizations: [] }],
        localizations: [],
      };
}

/** Questions requestors answer (text, or a choice of options), in order; answers are shown to approvers. */
export function QuestionsTab() {
  const { control } = useFormContext<AssignmentPolicyBody>();
  const { fields, append, remove, update } = useFieldArray({ control, name: 'questions' });
  const questions = useWatch({ control, name: 'questions' }) ?? [];
  // Fields of the old format that linger are dropped before checking (model/kind-fields.ts).
  const changeKind = (index: number, kind: typeof TEXT | typeof CHOICE) =>
    update(index, blankQuestion(kind, questions[index]?.sequence ?? index, questions[index]?.text ?? ''));
  return (
    <Stack gap="md" maw={1000}>
      <Text size="sm" c="dimmed">
        Requestors answer these when they ask for the package; approvers see the answers.
      </Text>
      {fields.map((field, index) => (
        <QuestionCard
          // A new answer format is a new question: its lists (choices, translations) start afresh.
          key={`${field.id}:${questions[index]?.['@odata.type'] ?? ''}`}
          index={index}
          question={questions[index]}
          onKind={(kind) => changeKind(index, kind)}
          onRemove={() => remove(index)}
        />
      ))}
      {fields.length === 0 ? (
        <Text size="sm">No questions: requestors only give a justification, if the Approval tab asks for one.</Text>
      ) : null}
      <Button
        variant="light"
        leftSection={<IconPlus size={16} />}
        w="fit-content"
        onClick={() => append(blankQuestion(TEXT, nextSequence(questions)))}
      >
        Add question
      </Button>
    </Stack>
  );
}

const nextSequence = (questions: readonly PolicyQuestion[]) => questions.reduce((max, q) => Math.max(max, (q.sequence ?? -1) + 1), 0);

function QuestionCard({
  index,
  question,
  onKind,
  onRemove,
}: {
  index: number;
  question: PolicyQuestion | undefined;
  onKind(kind: typeof TEXT | typeof CHOICE): void;
  onRemove(): void;
}) {
  const { register } = useFormContext();
  const at = `questions.${index}`;
  const textError = useFieldError(`${at}.text`);
  const regexError = useFieldError(`${at}.regexPattern`);
  if (!question) return null;
  const kind = question['@odata.type'];
  return (
    <Card withBorder padding="md" role="group" aria-label={`Question ${index + 1}`} data-testid="question">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={3} size="h5">
            Question {index + 1}
          </Title>
          <ActionIcon variant="subtle" color="red" aria-label={`Remove question ${index + 1}`} onClick={onRemove}>
            <IconTrash size={16} />
          </ActionIcon>
        </Group>
        <SegmentedControl
          aria-label={`Question ${index + 1}: answer format`}
          value={kind}
          onChange={(value) => value !== kind && onKind(value as typeof TEXT)}
          data={[
            { value: TEXT, label: 'Short or long text' },
            { value: CHOICE, label: 'Multiple choice' },
          ]}
          w="fit-content"
        />
        <TextInput label={`Question ${index + 1} text`} required error={textError} {...register(`${at}.text`)} />
        <LocalizationsField name={`${at}.localizations`} label={`Question ${index + 1} text`} />
        <Group gap="xl">
          <SwitchField name={`${at}.isRequired`} label="Required" />
          <SwitchField name={`${at}.isAnswerEditable`} label="Answer can be edited later" />
        </Group>
        {kind === TEXT ? (
          <>
            <Controller
              name={`${at}.isSingleLineQuestion`}
              render={({ field }) => (
                <Switch
                  label="Multi-line answer"
                  checked={field.value === false}
                  onChange={(event) => field.onChange(!event.currentTarget.checked)}
                />
              )}
            />
            <TextInput
              label="Answer must match (regular expression)"
              placeholder="^[A-Z]{3}-\d+$"
              spellCheck={false}
              error={regexError}
              {...register(`${at}.regexPattern`, { setValueAs: (value: string) => (value === '' ? null : value) })}
            />
          </>
        ) : (
          <ChoicesField at={at} questionNumber={index + 1} />
        )}
      </Stack>
    </Card>
  );
}

function ChoicesField({ at, questionNumber }: { at: string; questionNumber: number }) {
  const { control } = useFormContext();
  const { fields, append, remove } = useFieldArray({ control, name: `${at}.choices` as never });
  const choicesError = useFieldError(`${at}.choices`);
  return (
    <Stack gap="xs" role="group" aria-label={`Question ${questionNumber} choices`}>
      <SwitchField name={`${at}.isMultipleSelectionAllowed`} label="Requestors may pick more than one" />
      {fields.map((field, index) => (
        <ChoiceRow
          key={field.id}
          at={`${at}.choices.${index}`}
          label={`Question ${questionNumber} choice ${index + 1}`}
          onRemove={() => remove(index)}
        />
      ))}
      {choicesError ? (
        <Text size="sm" c="red" role="alert">
          {choicesError}
        </Text>
      ) : null}
      <Button
        size="xs"
        variant="light"
        leftSection={<IconPlus size={14} />}
        w="fit-content"
        onClick={() => append({ actualValue: '', text: '', localizations: [] } as never)}
      >
        Add choice
      </Button>
    </Stack>
  );
}

function ChoiceRow({ at, label, onRemove }: { at: string; label: string; onRemove(): void }) {
  const { register } = useFormContext();
  const valueError = useFieldError(`${at}.actualValue`);
  return (
    <Card withBorder padding="xs">
      <Stack gap={4}>
        <Group gap="xs" align="flex-start" wrap="nowrap">
          <TextInput label={`${label}: shown text`} style={{ flex: 1 }} {...register(`${at}.text`)} />
          <TextInput
            label={`${label}: stored value`}
            style={{ flex: 1 }}
            spellCheck={false}
            error={valueError}
            {...register(`${at}.actualValue`)}
          />
          <ActionIcon variant="subtle" color="red" mt={26} aria-label={`Remove ${label}`} onClick={onRemove}>
            <IconTrash size={16} />
          </ActionIcon>
        </Group>
        <LocalizationsField name={`${at}.localizations`} label={label} />
      </Stack>
    </Card>
  );
}
