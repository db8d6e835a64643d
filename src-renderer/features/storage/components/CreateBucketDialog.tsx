import { Button, Group, Modal, Radio, Select, Stack, Text, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import { KODO_REGIONS, type KodoRegion } from '@shared/contract/storage';
import { newBucketNameProblem } from '../model/bucket-settings-form';

export interface NewBucket {
  bucket: string;
  region: KodoRegion;
  private: boolean;
}

const REGION_OPTIONS = Object.entries(KODO_REGIONS).map(([value, label]) => ({ value, label: `${label} · ${value}` }));

/** Name, region and access of a new bucket, as Kodo Browser asks them; private unless the user says otherwise. */
export function CreateBucketDialog({
  opened,
  defaultRegion,
  busy,
  error,
  onCancel,
  onSubmit,
}: {
  opened: boolean;
  defaultRegion: KodoRegion;
  busy: boolean;
  error?: string;
  onCancel(): void;
  onSubmit(bucket: NewBucket): void;
}) {
  const [name, setName] = useState('');
  const [region, setRegion] = useState<KodoRegion>(defaultRegion);
  const [access, setAccess] = useState<'private' | 'public'>('private');
  const [touched, setTouched] = useState(false);
  useEffect(() => {
    if (!opened) return;
    setName('');
    setRegion(defaultRegion);
    setAccess('private');
    setTouched(false);
  }, [opened, defaultRegion]);
  const problem = newBucketNameProblem(name.trim());
  return (
    <Modal opened={opened} onClose={onCancel} title="New bucket" centered>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          setTouched(true);
          if (!problem) onSubmit({ bucket: name.trim(), region, private: access === 'private' });
        }}
      >
        <Stack gap="md">
          <TextInput
            label="Bucket name"
            description="3-63 letters, digits, - and _; unique across Kodo"
            value={name}
            onChange={(event) => (setName(event.currentTarget.value), setTouched(true))}
            error={touched && problem}
            data-autofocus
            spellCheck={false}
          />
          <Select
            label="Region"
            description="Where the bucket's objects are stored; it cannot be changed later"
            data={REGION_OPTIONS}
            value={region}
            onChange={(value) => value && setRegion(value as KodoRegion)}
            allowDeselect={false}
          />
          <Radio.Group label="Access" value={access} onChange={(value) => setAccess(value as 'private' | 'public')}>
            <Stack gap={6} mt={6}>
              <Radio value="private" label="Private" description="Downloads and previews need a signed link" />
              <Radio value="public" label="Public" description="Anyone with an object's URL can read it" />
            </Stack>
          </Radio.Group>
          {error ? (
            <Text c="red" size="sm" role="alert">
              {error}
            </Text>
          ) : null}
        </Stack>
        <Group justify="flex-end" mt="lg">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={busy}>
            Create bucket
          </Button>
        </Group>
      </form>
    </Modal>
  );
}
