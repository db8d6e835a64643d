import { lazy } from 'react';

/**
 * Every section but the live view is loaded when it is first opened: the console opens on the
 * live view, and its first tile should not wait for the storage browser, the directory, the
 * calendar or the config editor (CodeMirror) to be fetched and parsed. Each is one chunk that
 * Vite fetches with the chunks it shares in parallel, never one after another.
 */
export const ConfigView = lazy(() => import('../features/config/ConfigView').then((m) => ({ default: m.ConfigView })));
export const StreamsView = lazy(() => import('../features/streams/StreamsView').then((m) => ({ default: m.StreamsView })));
export const RecordingsView = lazy(() => import('../features/recordings/RecordingsView').then((m) => ({ default: m.RecordingsView })));
export const StorageView = lazy(() => import('../features/storage/StorageView').then((m) => ({ default: m.StorageView })));
export const TransfersView = lazy(() => import('../features/storage/TransfersView').then((m) => ({ default: m.TransfersView })));
export const CalendarView = lazy(() => import('../features/calendar/CalendarView').then((m) => ({ default: m.CalendarView })));
export const DirectoryView = lazy(() => import('../features/directory/DirectoryView').then((m) => ({ default: m.DirectoryView })));
export const AboutView = lazy(() => import('../features/about/AboutView').then((m) => ({ default: m.AboutView })));
export const SettingsView = lazy(() => import('../features/settings/SettingsView').then((m) => ({ default: m.SettingsView })));
