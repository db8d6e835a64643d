import { describe, expect, it } from 'vitest';
import { SECTIONS, SECTION_IDS, hashOf, sectionFromHash } from './sections';

describe('section routing', () => {
  it('maps hashes to sections and back', () => {
    for (const id of SECTION_IDS) expect(sectionFromHash(hashOf(id))).toBe(id);
    expect(sectionFromHash('#/streams/cam1')).toBe('streams');
    expect(sectionFromHash('#/config?x=1')).toBe('config');
  });

  it('lands on Live for an empty or unknown hash', () => {
    expect(sectionFromHash('')).toBe('live');
    expect(sectionFromHash('#/nope')).toBe('live');
    expect(sectionFromHash('#/__proto__')).toBe('live');
  });

  it('lists every section the console promises in the navigation', () => {
    const nav = SECTION_IDS.filter((id) => SECTIONS[id].inNav).map((id) => SECTIONS[id].title);
    expect(nav).toEqual(['Live', 'Streams', 'Config', 'Storage', 'Directory', 'Calendar', 'Settings']);
  });
});
