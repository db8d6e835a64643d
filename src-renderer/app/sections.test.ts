import { describe, expect, it } from 'vitest';
import { SECTIONS, SECTION_IDS } from './sections';

describe('section routing', () => {
  it('lists every section the console promises in the navigation', () => {
    const nav = SECTION_IDS.filter((id) => SECTIONS[id].inNav).map((id) => SECTIONS[id].title);
    expect(nav).toEqual(['Live', 'Streams', 'Recordings', 'Config', 'Storage', 'Directory', 'Calendar', 'Settings']);
  });
});
