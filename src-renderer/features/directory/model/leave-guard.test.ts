import { describe, expect, it } from 'vitest';
import { leavesPage } from './leave-guard';

describe('leaving the policy editor', () => {
  it.each([
    ['#/directory/policies/p1', '#/directory/assignments', true],
    ['#/directory/policies/p1', '#/directory', true],
    ['#/directory/policies/p1', '#/directory/policies/p2', true],
    ['#/directory/policies/p1', '#/live', true],
    ['#/directory/packages/k1/new', '#/directory/policies/p1', true],
    ['#/directory/policies/p1', '#/directory/policies/p1', false],
    ['#/directory/policies/p1', '#directory/policies/p1', false],
    ['#/directory/policies/p1', '#/directory/policies/p1?tab=review', false],
  ])('%s → %s leaves: %s', (from, to, leaves) => {
    expect(leavesPage(from, to)).toBe(leaves);
  });
});
