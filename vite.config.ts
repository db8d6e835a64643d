import { defineConfig } from 'vite';
import { viteAliases } from './scripts/aliases.mjs';

// The renderer: plain React built by Vite's esbuild (no plugin needed), relative asset paths so
// the same build loads from the Electron app:// protocol and from the headless server.
export default defineConfig({
  root: 'src-renderer',
  base: './',
  publicDir: '../assets',
  esbuild: { jsx: 'automatic' },
  // vite-node (benches, the emulators run from source) loads this file too.
  resolve: { alias: viteAliases() },
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    sourcemap: true,
    target: 'chrome120',
    chunkSizeWarningLimit: 2000,
    rollupOptions: {
      onwarn(warning, warn) {
        // React Query ships "use client" markers for server-component bundlers; harmless here.
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE' || warning.code === 'SOURCEMAP_ERROR') return;
        if (warning.message.includes('annotation that Rollup cannot interpret')) return;
        warn(warning);
      },
    },
  },
});
