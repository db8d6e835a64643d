import { Button } from '@mantine/core';
import { IconFileUpload } from '@tabler/icons-react';
import { useRef } from 'react';

/** "Choose the file again": the system's file picker for one upload whose file the page lost. */
export function ChooseFileAgain({ name, onChosen, busy }: { name: string; onChosen(file: File): void; busy: boolean }) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <Button
        size="compact-sm"
        variant="light"
        mr={4}
        leftSection={<IconFileUpload size={14} />}
        loading={busy}
        onClick={() => input.current?.click()}
        aria-label={`Choose the file again for ${name}`}
      >
        Choose the file again
      </Button>
      <input
        ref={input}
        type="file"
        hidden
        aria-hidden
        tabIndex={-1}
        data-testid="choose-again-input"
        onChange={(event) => {
          const file = event.currentTarget.files?.[0];
          // The same choice made twice in a row (after a refusal) must fire again.
          event.currentTarget.value = '';
          if (file) onChosen(file);
        }}
      />
    </>
  );
}
