import { ActionIcon, Button, Group, Stack, TextInput } from '@mantine/core';
import { IconLanguage, IconTrash } from '@tabler/icons-react';
import { useFieldArray, useFormContext } from 'react-hook-form';
import { useFieldError } from './use-field-error';

/** Translations of a text: one language code and text per row (en-US, fr-FR, …). */
export function LocalizationsField({ name, label }: { name: string; label: string }) {
  const { control, register } = useFormContext();
  const { fields, append, remove } = useFieldArray({ control, name: name as never });
  return (
    <Stack gap={4} role="group" aria-label={`${label} translations`}>
      {fields.map((field, index) => (
        <LocalizationRow
          key={field.id}
          at={`${name}.${index}`}
          label={`${label} translation ${index + 1}`}
          register={register}
          onRemove={() => remove(index)}
        />
      ))}
      <Button
        size="xs"
        variant="subtle"
        leftSection={<IconLanguage size={14} />}
        w="fit-content"
        onClick={() => append({ languageCode: '', text: '' } as never)}
      >
        Add a translation of {label.toLowerCase()}
      </Button>
    </Stack>
  );
}

function LocalizationRow({
  at,
  label,
  register,
  onRemove,
}: {
  at: string;
  label: string;
  register: ReturnType<typeof useFormContext>['register'];
  onRemove(): void;
}) {
  const codeError = useFieldError(`${at}.languageCode`);
  const textError = useFieldError(`${at}.text`);
  return (
    <Group gap="xs" align="flex-start" wrap="nowrap">
      <TextInput aria-label={`${label}: language`} placeholder="fr-FR" w={110} error={codeError} {...register(`${at}.languageCode`)} />
      <TextInput
        aria-label={`${label}: text`}
        placeholder="Translated text"
        style={{ flex: 1 }}
        error={textError}
        {...register(`${at}.text`)}
      />
      <ActionIcon variant="subtle" color="red" mt={4} aria-label={`Remove ${label}`} onClick={onRemove}>
        <IconTrash size={16} />
      </ActionIcon>
    </Group>
  );
}
