import { z } from 'zod';
import { defineService, method } from './define-service';

/** Ready-made persistent processing of a video, as Kodo's portal offers them. */
export const PROCESSING_PRESETS = [
  { id: 'mp4', label: 'Convert to MP4 (H.264, AAC)', command: 'avthumb/mp4', output: (stem: string) => `${stem}-h264.mp4` },
  {
    id: 'm3u8',
    label: 'HLS for streaming (m3u8, 10 s segments)',
    command: 'avthumb/m3u8/segtime/10',
    output: (stem: string) => `${stem}.m3u8`,
  },
  { id: 'jpg', label: 'Frame at 1 s as JPEG', command: 'vframe/jpg/offset/1', output: (stem: string) => `${stem}-frame.jpg` },
] as const;

/** `clips/gate.mov` → `clips/gate` (the extension of the last segment only). */
export function keyStem(key: string): string {
  const slash = key.lastIndexOf('/');
  const dot = key.lastIndexOf('.');
  return dot > slash + 1 ? key.slice(0, dot) : key;
}

/**
 * One command of Kodo's data processing (`avthumb/mp4/s/1280x720`): a name and slash-separated
 * arguments. Pipes and `saveas` are the console's to add, so a typed command cannot write elsewhere.
 */
export const processingCommand = z
  .string()
  .trim()
  .min(1, 'type a command, e.g. avthumb/mp4/s/1280x720')
  .max(1024)
  .regex(/^[a-zA-Z][\w-]*(\/[^|\s]*)?$/, 'one command like avthumb/mp4/s/1280x720: no spaces and no |')
  .refine((command) => !/(^|\/)saveas\//.test(command), 'the result key is set under Save as, not in the command');

const bucketName = z.string().regex(/^[a-zA-Z0-9_-]{1,63}$/, 'a bucket name has letters, digits, - and _ (1-63)');
const objectKey = z.string().min(1, 'name the result').max(1024, 'a key has at most 1024 characters');

const processingJobSchema = z.object({
  /** Kodo's persistentId. */
  id: z.string(),
  accountId: z.string(),
  bucket: z.string(),
  key: z.string(),
  command: z.string(),
  saveAs: z.object({ bucket: z.string(), key: z.string() }),
  state: z.enum(['waiting', 'processing', 'done', 'failed']),
  error: z.string().optional(),
  createdAt: z.number(),
  finishedAt: z.number().optional(),
});
export type ProcessingJob = z.infer<typeof processingJobSchema>;

/** Persistent data processing (pfop) of objects, followed through prefop until it ends. */
export const processingService = defineService({
  name: 'processing',
  methods: {
    start: method(
      z.object({
        accountId: z.string().min(1),
        bucket: bucketName,
        key: objectKey,
        command: processingCommand,
        saveAs: z.object({ bucket: bucketName, key: objectKey }),
      }),
      processingJobSchema,
    ),
    /** This run's jobs, newest first. */
    list: method(z.void(), z.array(processingJobSchema)),
  },
  events: {
    onJob: processingJobSchema,
  },
});
