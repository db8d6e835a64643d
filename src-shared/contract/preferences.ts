import { z } from 'zod';
import { defineService, method } from './define-service';
import { assignmentColumns } from './directory';
import { MAX_REMOTE_SOURCE_LENGTH } from './relays';

/** Grid layouts of the live view: one tile, fixed squares, or as many columns as fit. */
export const LIVE_LAYOUTS = ['1', '2x2', '3x3', '4x4', 'auto'] as const;
const liveLayoutSchema = z.enum(LIVE_LAYOUTS);
export type LiveLayout = z.infer<typeof liveLayoutSchema>;

/** How a tile plays a stream; the order is the fallback order of the automatic choice. */
export const PLAYER_MODES = ['webrtc', 'mse', 'hls', 'mjpeg'] as const;
const playerModeSchema = z.enum(PLAYER_MODES);

/**
 * A tile's stream as the live view keys it: a local stream's name, or a remote one's
 * `relay://<relay>/<stream>` (percent-encoded, so longer than any name).
 */
const tileStream = z.string().min(1).max(MAX_REMOTE_SOURCE_LENGTH);

/** The grid itself: what the layout control and dragging a tile change. */
const liveGridSchema = z.object({
  layout: liveLayoutSchema.default('auto'),
  /** Stream names in the order the user arranged the tiles; streams not listed follow by name. */
  order: z.array(z.string().max(MAX_REMOTE_SOURCE_LENGTH)).max(1000).default([]),
});

const MAX_FORCED_MODES = 1000;
const liveViewSchema = liveGridSchema.extend({
  /** The playback mode the user forced per stream (tiles and pop-outs); a stream not listed plays in automatic mode. */
  modes: z
    .record(tileStream, playerModeSchema)
    .refine((modes) => Object.keys(modes).length <= MAX_FORCED_MODES, `at most ${MAX_FORCED_MODES} forced modes`)
    .default({}),
});

const windowBoundsSchema = z.object({
  x: z.number().int(),
  y: z.number().int(),
  width: z.number().int().min(160).max(16384),
  height: z.number().int().min(120).max(16384),
});
export type WindowBounds = z.infer<typeof windowBoundsSchema>;

/** A camera popped out into its own desktop window, reopened where it was after a restart. */
const popoutSchema = z.object({ stream: tileStream, bounds: windowBoundsSchema.optional() });
export type Popout = z.infer<typeof popoutSchema>;

/** The Directory section's lists: which assignment columns are shown (and so asked of Graph). */
const directoryViewSchema = z.object({
  assignmentColumns: z
    .array(z.enum(assignmentColumns))
    .min(1)
    .default(['target', 'accessPackage', 'assignmentPolicy', 'state', 'schedule']),
});

/**
 * The console's colours: `system` follows the operating system's light or dark setting (and
 * changes with it), `light` and `dark` hold whatever the system says.
 */
export const COLOR_SCHEMES = ['system', 'light', 'dark'] as const;
export const colorSchemeSchema = z.enum(COLOR_SCHEMES);
export type ColorSchemePreference = z.infer<typeof colorSchemeSchema>;

const appearanceSchema = z.object({
  colorScheme: colorSchemeSchema.default('system'),
});
export type AppearancePreferences = z.infer<typeof appearanceSchema>;

/** The bucket snapshots and clips of a live stream that is not recorded went into last (the dialog's default). */
const liveToBucketSchema = z.object({ accountId: z.string().min(1).max(256), bucket: z.string().min(1).max(63) });

export const preferencesSchema = z.object({
  appearance: appearanceSchema.prefault({}),
  live: liveViewSchema.prefault({}),
  directory: directoryViewSchema.prefault({}),
  popouts: z.array(popoutSchema).max(64).default([]),
  liveToBucket: liveToBucketSchema.optional(),
});
export type Preferences = z.infer<typeof preferencesSchema>;

/**
 * What the console remembers between runs, kept by main in `data_dir` so the desktop window
 * and the headless console come back the same.
 */
export const preferencesService = defineService({
  name: 'preferences',
  methods: {
    get: method(z.void(), preferencesSchema),
    /** The grid's layout and order; the forced modes stay as they are. */
    setLiveView: method(liveGridSchema, preferencesSchema),
    /** Forces a playback mode for one stream, or (null) gives it back to the automatic choice. */
    setTileMode: method(z.object({ stream: tileStream, mode: playerModeSchema.nullable() }), preferencesSchema),
    setDirectoryView: method(directoryViewSchema, preferencesSchema),
    /** The colour theme of every console window (the desktop app's and browsers'). */
    setAppearance: method(appearanceSchema, preferencesSchema),
    /** Remembers the bucket a live snapshot or clip went into. */
    setLiveToBucket: method(liveToBucketSchema, preferencesSchema),
    /** Opens a camera in its own window (desktop); the headless console opens a browser window itself. */
    openPopout: method(z.object({ stream: tileStream }), z.object({ opened: z.boolean() })),
  },
  events: {
    onPreferences: preferencesSchema,
  },
});
