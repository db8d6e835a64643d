/** How the details panel shows an object, from its MIME type and, when that says little, its name. */
export type PreviewKind = 'image' | 'video' | 'markdown' | 'json' | 'text' | 'none';

/** What is read of a text object for its preview: enough to see what it is, never a whole log. */
export const TEXT_PREVIEW_BYTES = 256 * 1024;

const IMAGE = /^image\/(jpeg|png|gif|webp|bmp|tiff|avif)$/;
const TEXT_TYPES = /^(text\/.+|application\/(xml|x-yaml|yaml|javascript|x-sh|toml|csv|x-ndjson))$/;
const TEXT_NAMES = /\.(txt|log|ya?ml|csv|tsv|xml|ini|conf|cfg|toml|sh|env|srt|vtt|m3u8)$/i;

export function previewKind(mimeType: string, key: string): PreviewKind {
  const type = mimeType.split(';')[0]!.trim().toLowerCase();
  if (IMAGE.test(type)) return 'image';
  if (type.startsWith('video/')) return 'video';
  if (type === 'text/markdown' || /\.(md|markdown)$/i.test(key)) return 'markdown';
  if (type === 'application/json' || /\.json$/i.test(key)) return 'json';
  if (TEXT_TYPES.test(type) || TEXT_NAMES.test(key)) return 'text';
  return 'none';
}

/** JSON shown indented when the whole file was read and parses; otherwise as it is. */
export function prettyJson(text: string, complete: boolean): { text: string; formatted: boolean } {
  if (!complete) return { text, formatted: false };
  try {
    return { text: JSON.stringify(JSON.parse(text), null, 2), formatted: true };
  } catch {
    return { text, formatted: false };
  }
}
