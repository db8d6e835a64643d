import { Kbd, Modal, Stack, Table, Text, Title } from '@mantine/core';
import { Fragment, useId } from 'react';
import { ariaKeys, isMacPlatform, keyCaps, keysOn, type ShortcutGroup } from '../../ui/keyboard/shortcut';
import type { SectionId } from '../sections';
import { shortcutsIn } from './registry';

function KeyCombo({ combo, mac }: { combo: string; mac: boolean }) {
  return (
    <span className="key-combo">
      {/* Screen readers hear the keys' names (Control+L), sighted users see the caps (Ctrl L). */}
      <span className="visually-hidden">{ariaKeys(combo, mac)}</span>
      {keyCaps(combo, mac).map((cap, i) => (
        <Kbd key={i} aria-hidden="true">
          {cap}
        </Kbd>
      ))}
    </span>
  );
}

function GroupTable({ group, mac }: { group: ShortcutGroup; mac: boolean }) {
  const id = useId();
  return (
    <section aria-labelledby={id}>
      <Title order={3} size="h6" id={id} mb={2}>
        {group.title}
      </Title>
      <Table verticalSpacing={4} aria-labelledby={id}>
        <Table.Thead className="visually-hidden">
          <Table.Tr>
            <Table.Th>Keys</Table.Th>
            <Table.Th>Does</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {group.shortcuts.map((shortcut) => (
            <Table.Tr key={shortcut.description}>
              <Table.Td className="shortcut-keys">
                {keysOn(shortcut, mac).map((combo, i) => (
                  <Fragment key={combo}>
                    {i > 0 ? <span className="shortcut-or"> or </span> : null}
                    <KeyCombo combo={combo} mac={mac} />
                  </Fragment>
                ))}
              </Table.Td>
              <Table.Td>{shortcut.description}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </section>
  );
}

/**
 * The one shortcuts dialog: the keys that work everywhere and those of the section shown, as
 * the sections declare them (app/shortcuts/registry.ts).
 */
export function ShortcutsDialog({ opened, onClose, section }: { opened: boolean; onClose(): void; section: SectionId }) {
  const listed = shortcutsIn(section);
  // Mod is ⌘ on a Mac's keyboard and Ctrl on the others: the dialog names the keys the user has.
  const mac = isMacPlatform(navigator.platform || navigator.userAgent);
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title="Keyboard shortcuts"
      size="lg"
      styles={{ title: { fontWeight: 600, fontSize: 'var(--mantine-font-size-lg)' } }}
    >
      <Stack gap="md">
        {listed.section.length === 0 ? (
          <Text size="sm">The {listed.sectionTitle} section has no keys of its own; the ones below work everywhere.</Text>
        ) : (
          listed.section.map((group) => (
            <GroupTable key={group.title} group={{ ...group, title: `${listed.sectionTitle}: ${group.title}` }} mac={mac} />
          ))
        )}
        <GroupTable group={listed.global} mac={mac} />
      </Stack>
    </Modal>
  );
}
