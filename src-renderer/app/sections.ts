/** The console's sections, in navigation order. A closed union so links cannot drift. */
export const SECTION_IDS = ['live', 'streams', 'recordings', 'config', 'storage', 'directory', 'calendar', 'settings', 'about'] as const;
export type SectionId = (typeof SECTION_IDS)[number];

export interface SectionInfo {
  id: SectionId;
  title: string;
  /** One line under the title: what the user does here. */
  summary: string;
  /** Shown in the main navigation (About is reached from Settings and the footer). */
  inNav: boolean;
}

export const SECTIONS: Record<SectionId, SectionInfo> = {
  live: { id: 'live', title: 'Live', summary: 'Watch every stream as a tile; pop a camera out into its own window.', inNav: true },
  streams: { id: 'streams', title: 'Streams', summary: 'Sources, consumers and output links of each relay stream.', inNav: true },
  recordings: {
    id: 'recordings',
    title: 'Recordings',
    summary: 'Recorded cameras by day: play a moment back, export a range, see what the bucket holds.',
    inNav: true,
  },
  config: { id: 'config', title: 'Config', summary: 'Edit the relay configuration file with validation before it is saved.', inNav: true },
  storage: { id: 'storage', title: 'Storage', summary: 'Browse buckets, upload and manage objects, refresh the CDN.', inNav: true },
  directory: {
    id: 'directory',
    title: 'Directory',
    summary: 'Access-package assignment policies, assignments and scoped role members.',
    inNav: true,
  },
  calendar: {
    id: 'calendar',
    title: 'Calendar',
    summary: 'Calendar delta sync: status, rounds and the local copy of the view.',
    inNav: true,
  },
  settings: { id: 'settings', title: 'Settings', summary: 'Accounts, endpoints and console preferences.', inNav: true },
  about: { id: 'about', title: 'About', summary: 'Version, runtime and where Relay Console keeps its files.', inNav: false },
};

export function isSectionId(value: string): value is SectionId {
  return (SECTION_IDS as readonly string[]).includes(value);
}

export const hashOf = (id: SectionId): string => `#/${id}`;
