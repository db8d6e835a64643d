import { describe, expect, it } from 'vitest';
import { matchesFilter, parseFilter } from './odata-filter';

const PATHS = ['state', 'accessPackage/id', 'displayName', 'isHidden'];
const pass = (filter: string, values: Record<string, unknown>) => matchesFilter(parseFilter(filter, PATHS, 'thing'), (path) => values[path]);

describe('$filter', () => {
  it('compares with eq and ne, case-insensitively for strings', () => {
    expect(pass("state eq 'Delivered'", { state: 'delivered' })).toBe(true);
    expect(pass("state ne 'delivered'", { state: 'expired' })).toBe(true);
    expect(pass("state eq 'delivered'", { state: 'expired' })).toBe(false);
    expect(pass('isHidden eq false', { isHidden: false })).toBe(true);
  });

  it('joins clauses with and/or, and binds and tighter than or', () => {
    const values = { state: 'expired', 'accessPackage/id': 'p1' };
    expect(pass("state eq 'delivered' and accessPackage/id eq 'p1'", values)).toBe(false);
    expect(pass("state eq 'delivered' or state eq 'expired' and accessPackage/id eq 'p1'", values)).toBe(true);
    expect(pass("(state eq 'delivered' or state eq 'expired') and accessPackage/id eq 'p2'", values)).toBe(false);
  });

  it('reads startswith and quotes doubled inside a string', () => {
    expect(pass("startswith(displayName,'o''br')", { displayName: "O'Brien" })).toBe(true);
    expect(pass("startswith(displayName, 'x')", { displayName: 'Ada' })).toBe(false);
  });

  it('refuses unknown properties, operators and trailing text with the reason', () => {
    expect(() => parseFilter("target eq 'x'", PATHS, 'accessPackageAssignment')).toThrow("Could not find a property named 'target' on type 'microsoft.graph.accessPackageAssignment'.");
    expect(() => parseFilter("state gt 'a'", PATHS, 't')).toThrow("the operator 'gt' is not supported");
    expect(() => parseFilter("state eq 'a' state", PATHS, 't')).toThrow("unexpected 'state'");
    expect(() => parseFilter("state eq 'a", PATHS, 't')).toThrow('Invalid filter clause');
    expect(() => parseFilter('', PATHS, 't')).toThrow('the filter is empty');
  });
});
