import { Button, Checkbox, Group, Modal, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';

export interface NameDialogProps {
  opened: boolean;
  title: string;
  label: string;
  initial: string;
  submitLabel: string;
  /** Offer "replace files that exist" (rename over an existing name). */
  withOverwrite?: boolean;
  /** The reason a name is refused, checked as the user types. */
  validate(name: string): string | undefined;
  onCancel(): void;
  onSubmit(name: string, overwrite: boolean): void;
  busy: boolean;
  /** What the service said when it refused. */
  error?: string;
}

/** One name typed and checked: a new folder, or the new name of a file or folder. */
export function NameDialog({
  opened,
  title,
  label,
  initial,
  submitLabel,
  withOverwrite,
  validate,
  onCancel,
  onSubmit,
  busy,
  error,
}: NameDialogProps) {
  const [name, setName] = useState(initial);
  const [overwrite, setOverwrite] = useState(false);
  const [touched, setTouched] = useState(false);
  useEffect(() => {
    if (!opened) return;
    setName(initial);
    setOverwrite(false);
    setTouched(false);
  }, [opened, initial]);
  const problem = validate(name.trim());
  const submit = () => {
    setTouched(true);
    if (!problem) onSubmit(name.trim(), overwrite);
  };
  return (
    <Modal opened={opened} onClose={onCancel} title={title} centered>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <TextInput
          label={label}
          value={name}
          onChange={(event) => (setName(event.currentTarget.value), setTouched(true))}
          error={(touched && problem) || error}
          data-autofocus
          spellCheck={false}
        />
        {withOverwrite ? (
          <Checkbox
            mt="sm"
            label="Replace a file that already has this name"
            checked={overwrite}
            onChange={(event) => setOverwrite(event.currentTarget.checked)}
          />
        ) : null}
        <Group justify="flex-end" mt="lg">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={busy}>
            {submitLabel}
          </Button>
        </Group>
      </form>
    </Modal>
  );
}
