import { Kbd, Modal, Table } from '@mantine/core';
import { SHORTCUTS } from '../model/shortcuts';

/** The `?` overlay: every key of the live view, from the same table the handler reads. */
export function ShortcutsOverlay({ opened, onClose }: { opened: boolean; onClose(): void }) {
  return (
    <Modal opened={opened} onClose={onClose} title="Keyboard shortcuts">
      <Table>
        <Table.Tbody>
          {SHORTCUTS.map((shortcut) => (
            <Table.Tr key={shortcut.action}>
              <Table.Td>
                {shortcut.keys.map((key, i) => (
                  <span key={key}>
                    {i > 0 ? ' or ' : null}
                    <Kbd>{key}</Kbd>
                  </span>
                ))}
              </Table.Td>
              <Table.Td>{shortcut.description}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Modal>
  );
}
