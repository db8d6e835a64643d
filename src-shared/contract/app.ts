import { z } from 'zod';
import { defineService, method } from './define-service';

export const runtimeSchema = z.enum(['electron', 'headless']);

const appInfoSchema = z.object({
  name: z.string(),
  version: z.string(),
  runtime: runtimeSchema,
  configPath: z.string(),
  dataDir: z.string(),
  /** Where the relay API (and in headless mode the console) is served. */
  apiUrl: z.string(),
  startedAt: z.string(),
  uptimeSeconds: z.number().nonnegative(),
  platform: z.string(),
  nodeVersion: z.string(),
});

const uptimeSchema = z.object({ uptimeSeconds: z.number().nonnegative() });

/** The application itself: what runs, where its files are, how long it has been up. */
export const appService = defineService({
  name: 'app',
  methods: {
    info: method(z.void(), appInfoSchema),
    /** Stops every module and starts them again from the config file on disk. */
    restart: method(z.void(), z.void()),
  },
  events: {
    /** Pushed every few seconds so the shell can show that main is alive. */
    onHeartbeat: uptimeSchema,
  },
});
