import { Button, Menu } from '@mantine/core';
import { IconChevronDown, IconFiles, IconFolderUp, IconUpload } from '@tabler/icons-react';
import { useRef } from 'react';

/** "Upload" with a choice of files or a whole folder, through the system's own pickers. */
export function UploadMenu({ onFiles, busy }: { onFiles(files: File[]): void; busy: boolean }) {
  const filesInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  const take = (input: HTMLInputElement) => {
    const files = Array.from(input.files ?? []);
    // The same choice made twice in a row must fire again.
    input.value = '';
    if (files.length > 0) onFiles(files);
  };
  return (
    <>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <Button size="xs" leftSection={<IconUpload size={16} />} rightSection={<IconChevronDown size={14} />} loading={busy}>
            Upload
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item leftSection={<IconFiles size={16} />} onClick={() => filesInput.current?.click()}>
            Files…
          </Menu.Item>
          <Menu.Item leftSection={<IconFolderUp size={16} />} onClick={() => folderInput.current?.click()}>
            Folder…
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      <input
        ref={filesInput}
        type="file"
        multiple
        hidden
        aria-hidden
        tabIndex={-1}
        onChange={(event) => take(event.currentTarget)}
        data-testid="upload-files-input"
      />
      <input
        ref={folderInput}
        type="file"
        hidden
        aria-hidden
        tabIndex={-1}
        {...{ webkitdirectory: '' }}
        onChange={(event) => take(event.currentTarget)}
        data-testid="upload-folder-input"
      />
    </>
  );
}
