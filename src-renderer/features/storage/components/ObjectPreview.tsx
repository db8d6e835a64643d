import { Button, Image, Stack, Text } from '@mantine/core';
import { IconPlayerPlay } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import Markdown from 'react-markdown';
import type { PreviewView } from '@shared/contract/storage';
import { useMediaBase } from '@renderer/api/use-media-base';
import { useServiceQuery } from '@renderer/api/use-service-query';
import { formatBytes } from '@renderer/ui/format';
import { LoadingLine } from '@renderer/ui/LoadingLine';
import { ResultError } from '@renderer/ui/ResultError';
import { prettyJson, previewKind, TEXT_PREVIEW_BYTES } from '../model/preview-kind';

interface Target {
  accountId: string;
  bucket: string;
  objectKey: string;
}

/**
 * A preview address on the console's API origin (the page's own in a browser, the API's in the
 * desktop window), asked for once per object and view.
 */
function usePreviewUrl({ accountId, bucket, objectKey }: Target, view: PreviewView, enabled = true) {
  const base = useMediaBase();
  return useServiceQuery(
    'storage',
    'previewLink',
    { accountId, bucket, key: objectKey, view },
    { enabled: enabled && base !== undefined, staleTime: 10 * 60_000, select: (link) => `${base}${link.url}` },
  );
}

/** A thumbnail at its own size (the service never enlarges one), shrunk only to fit the panel. */
function ImagePreview({ target }: { target: Target }) {
  const url = usePreviewUrl(target, 'thumbnail');
  const [failed, setFailed] = useState(false);
  if (url.isError) return <ResultError error={url.error} title="No preview" />;
  if (!url.data) return <LoadingLine>Making a thumbnail…</LoadingLine>;
  if (failed)
    return (
      <Text size="sm" c="dimmed">
        The service could not make a thumbnail of this image.
      </Text>
    );
  return (
    <Image
      src={url.data}
      alt={`Preview of ${target.objectKey}`}
      radius="sm"
      w="auto"
      maw="100%"
      mah={360}
      fit="contain"
      onError={() => setFailed(true)}
      data-testid="image-preview"
    />
  );
}

function VideoPreview({ target }: { target: Target }) {
  const [playing, setPlaying] = useState(false);
  const poster = usePreviewUrl(target, 'poster');
  const original = usePreviewUrl(target, 'original', playing);
  if (poster.isError) return <ResultError error={poster.error} title="No preview" />;
  if (playing && original.data) {
    return (
      <video
        src={original.data}
        poster={poster.data}
        controls
        autoPlay
        className="object-video"
        aria-label={`Video ${target.objectKey}`}
        data-testid="video-preview"
      />
    );
  }
  return (
    <Stack gap={6} align="flex-start">
      {poster.data ? (
        <Image
          src={poster.data}
          alt={`First frame of ${target.objectKey}`}
          radius="sm"
          w="auto"
          maw="100%"
          mah={300}
          fit="contain"
          data-testid="poster-preview"
        />
      ) : (
        <LoadingLine>Taking a frame…</LoadingLine>
      )}
      <Button size="xs" variant="default" leftSection={<IconPlayerPlay size={16} />} onClick={() => setPlaying(true)}>
        Play
      </Button>
    </Stack>
  );
}

function TextPreview({ target, kind, size }: { target: Target; kind: 'markdown' | 'json' | 'text'; size: number }) {
  const url = usePreviewUrl(target, 'original');
  const text = useQuery({
    // A file's text, fetched from its preview address: no call of the contract.
    queryKey: ['preview-text', url.data],
    queryFn: async () => {
      // Only the head of a big file is read; the console says so.
      const response = await fetch(url.data!, size > TEXT_PREVIEW_BYTES ? { headers: { Range: `bytes=0-${TEXT_PREVIEW_BYTES - 1}` } } : {});
      if (!response.ok) throw new Error(`the preview answered HTTP ${response.status}`);
      return response.text();
    },
    enabled: Boolean(url.data),
    staleTime: Infinity,
  });
  const error = url.error ?? text.error;
  if (error) return <ResultError error={error} title="No preview" />;
  if (text.data === undefined) return <LoadingLine>Reading the file…</LoadingLine>;
  const complete = size <= TEXT_PREVIEW_BYTES;
  const shown = kind === 'json' ? prettyJson(text.data, complete).text : text.data;
  return (
    <Stack gap={4}>
      {kind === 'markdown' ? (
        <div className="markdown-preview" data-testid="markdown-preview">
          <Markdown>{shown}</Markdown>
        </div>
      ) : (
        <pre className="text-preview" data-testid="text-preview" tabIndex={0}>
          {shown}
        </pre>
      )}
      {!complete ? (
        <Text size="xs" c="dimmed">
          The first {formatBytes(TEXT_PREVIEW_BYTES)} of {formatBytes(size)}.
        </Text>
      ) : null}
    </Stack>
  );
}

/** The object as it looks: a thumbnail, a video's first frame and player, or the text. */
export function ObjectPreview({ target, mimeType, size }: { target: Target; mimeType: string; size: number }) {
  const kind = previewKind(mimeType, target.objectKey);
  if (kind === 'none') return null;
  return (
    <section aria-label="Preview" data-testid="object-preview">
      {kind === 'image' ? <ImagePreview target={target} /> : null}
      {kind === 'video' ? <VideoPreview target={target} /> : null}
      {kind === 'markdown' || kind === 'json' || kind === 'text' ? <TextPreview target={target} kind={kind} size={size} /> : null}
    </section>
  );
}
