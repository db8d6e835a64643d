import { ActionIcon, Button, Group, Select, Stack, Text } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { Controller, useFieldArray, useFormContext } from 'react-hook-form';
import { customExtensionStageSchema, type AssignmentPolicyBody } from '@shared/contract/directory';
import { ExtensionIdInput } from '../fields/ExtensionIdInput';
import { useFieldError } from '../fields/use-field-error';
import { EXTENSION_STAGE_LABELS } from '../../model/review-summary';

/** Logic Apps (custom extensions of the catalog) called at stages of a request's life. */
export function ExtensionsTab() {
  const { control } = useFormContext<AssignmentPolicyBody>();
  const { fields, append, remove } = useFieldArray({ control, name: 'customExtensionStageSettings' });
  return (
    <Stack gap="sm" maw={900}>
      <Text size="sm" c="dimmed">
        Each row calls a custom extension of the package’s catalog when a request reaches the stage.
      </Text>
      {fields.map((field, index) => (
        <ExtensionRow key={field.id} index={index} onRemove={() => remove(index)} />
      ))}
      {fields.length === 0 ? <Text size="sm">No custom extensions are called.</Text> : null}
      <Button
        variant="light"
        leftSection={<IconPlus size={16} />}
        w="fit-content"
        onClick={() => append({ stage: 'assignmentRequestCreated', customExtension: { id: '' } })}
      >
        Add custom extension
      </Button>
    </Stack>
  );
}

function ExtensionRow({ index, onRemove }: { index: number; onRemove(): void }) {
  const at = `customExtensionStageSettings.${index}` as const;
  const rowError = useFieldError(at);
  return (
    <Group align="flex-start" gap="xs" wrap="nowrap" data-testid="extension-row">
      <Controller
        name={`${at}.stage`}
        render={({ field }) => (
          <Select
            label={`Extension ${index + 1}: stage`}
            data={customExtensionStageSchema.options.map((value) => ({ value, label: EXTENSION_STAGE_LABELS[value] ?? value }))}
            value={field.value as string}
            onChange={(value) => field.onChange(value)}
            allowDeselect={false}
            error={rowError}
            w={260}
          />
        )}
      />
      <ExtensionIdInput name={`${at}.customExtension.id`} label={`Extension ${index + 1}: custom extension`} />
      <ActionIcon variant="subtle" color="red" mt={26} aria-label={`Remove extension ${index + 1}`} onClick={onRemove}>
        <IconTrash size={16} />
      </ActionIcon>
    </Group>
  );
}
