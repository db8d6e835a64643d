import { ActionIcon, Group, TextInput, Tooltip } from '@mantine/core';
import { IconArrowLeft, IconArrowRight, IconArrowUp } from '@tabler/icons-react';
import { useEffect, useState, type Ref } from 'react';
import { parseAddress, printAddress, type FolderLocation } from '../model/kodo-address';

export interface AddressBarProps {
  location: FolderLocation;
  onGo(location: FolderLocation): void;
  onBack?: () => void;
  onForward?: () => void;
  onUp?: () => void;
  inputRef?: Ref<HTMLInputElement>;
}

/** Back, forward, up and an editable `kodo://bucket/prefix/` address, as a file manager has them. */
export function AddressBar({ location, onGo, onBack, onForward, onUp, inputRef }: AddressBarProps) {
  const shown = printAddress(location);
  const [text, setText] = useState(shown);
  const [error, setError] = useState<string>();
  useEffect(() => {
    setText(shown);
    setError(undefined);
  }, [shown]);

  const go = () => {
    const parsed = parseAddress(text);
    if ('error' in parsed) return setError(parsed.error);
    setError(undefined);
    onGo(parsed);
  };

  return (
    <Group gap={4} wrap="nowrap" align="flex-start" className="address-bar">
      <Tooltip label="Back (Alt+←)">
        <ActionIcon variant="subtle" size="lg" aria-label="Back" disabled={!onBack} onClick={onBack}>
          <IconArrowLeft size={18} />
        </ActionIcon>
      </Tooltip>
      <Tooltip label="Forward (Alt+→)">
        <ActionIcon variant="subtle" size="lg" aria-label="Forward" disabled={!onForward} onClick={onForward}>
          <IconArrowRight size={18} />
        </ActionIcon>
      </Tooltip>
      <Tooltip label="Up one folder (Alt+↑)">
        <ActionIcon variant="subtle" size="lg" aria-label="Up one folder" disabled={!onUp} onClick={onUp}>
          <IconArrowUp size={18} />
        </ActionIcon>
      </Tooltip>
      <TextInput
        ref={inputRef}
        aria-label="Address"
        value={text}
        error={error}
        onChange={(event) => setText(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') go();
          if (event.key === 'Escape') {
            setText(shown);
            setError(undefined);
          }
        }}
        spellCheck={false}
        style={{ flex: 1 }}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
      />
    </Group>
  );
}
