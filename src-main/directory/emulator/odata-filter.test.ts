import { describe, expect, it } from 'vitest';
import { matchesFilter, parseFilter, type FilterRules } from './odata-filter';

const RULES: FilterRules = { type: 'thing', paths: ['state', 'accessPackage/id', 'displayName', 'isHidden', 'createdDateTime', 'size'] };
const pass = (filter: string, values: Record<string, unknown>, rules: FilterRules = RULES) =>
  matchesFilter(parseFilter(filter, rules), (path) => values[path]);
const USERS: FilterRules = {
  type: 'user',
  paths: ['displayName', 'mail'],
  properties: ['displayName', 'mail', 'jobTitle'],
  directory: true,
};

describe('$filter', () => {
  it('compares with eq and ne, case-insensitively for strings', () => {
    expect(pass("state eq 'Delivered'", { state: 'delivered' })).toBe(true);
    expect(pass("state ne 'delivered'", { state: 'expired' })).toBe(true);
    expect(pass("state eq 'delivered'", { state: 'expired' })).toBe(false);
    expect(pass('isHidden eq false', { isHidden: false })).toBe(true);
  });

  it('orders dates by instant, numbers by value and strings without case with gt/ge/lt/le', () => {
    expect(pass('createdDateTime ge 2031-05-01T00:00:00Z', { createdDateTime: '2031-05-01T00:00:00Z' })).toBe(true);
    expect(pass('createdDateTime gt 2031-05-01T00:00:00Z', { createdDateTime: '2031-05-01T01:00:00+02:00' })).toBe(false);
    expect(pass("createdDateTime lt '2031-05-02T00:00:00Z'", { createdDateTime: '2031-05-01T23:59:59Z' })).toBe(true);
    expect(pass('size le 10', { size: 9 })).toBe(true);
    expect(pass('size gt 10', { size: null })).toBe(false);
    expect(pass("displayName gt 'b'", { displayName: 'Carol' })).toBe(true);
  });

  it('joins clauses with and/or, binds and tighter than or, and negates with not', () => {
    const values = { state: 'expired', 'accessPackage/id': 'p1' };
    expect(pass("state eq 'delivered' and accessPackage/id eq 'p1'", values)).toBe(false);
    expect(pass("state eq 'delivered' or state eq 'expired' and accessPackage/id eq 'p1'", values)).toBe(true);
    expect(pass("(state eq 'delivered' or state eq 'expired') and accessPackage/id eq 'p2'", values)).toBe(false);
    expect(pass("not (state eq 'delivered')", values)).toBe(true);
  });

  it('reads in (...), startswith, endswith and contains, with quotes doubled inside a string', () => {
    expect(pass("state in ('delivered', 'Expired')", { state: 'expired' })).toBe(true);
    expect(pass("state in ('delivered')", { state: 'expired' })).toBe(false);
    expect(pass("startswith(displayName,'o''br')", { displayName: "O'Brien" })).toBe(true);
    expect(pass("startswith(displayName, 'x')", { displayName: 'Ada' })).toBe(false);
    expect(pass("endswith(displayName,'RIEN')", { displayName: "O'Brien" })).toBe(true);
    expect(pass("contains(displayName,'bri')", { displayName: "O'Brien" })).toBe(true);
  });

  it('refuses unknown properties, operators and trailing text with the reason', () => {
    expect(() => parseFilter("target eq 'x'", { ...RULES, type: 'accessPackageAssignment' })).toThrow(
      "Could not find a property named 'target' on type 'microsoft.graph.accessPackageAssignment'.",
    );
    expect(() => parseFilter("state has 'a'", RULES)).toThrow("the operator 'has' is not supported");
    expect(() => parseFilter("state eq 'a' state", RULES)).toThrow("unexpected 'state'");
    expect(() => parseFilter("state eq 'a", RULES)).toThrow('Invalid filter clause');
    expect(() => parseFilter('', RULES)).toThrow('the filter is empty');
  });

  it('answers directory objects as Graph directory does: unsupported properties and advanced-only operators', () => {
    const refusal = (filter: string, rules = USERS) => {
      try {
        parseFilter(filter, rules);
      } catch (error) {
        return { code: (error as { code: string }).code, message: (error as Error).message };
      }
      return undefined;
    };
    expect(refusal("jobTitle eq 'x'")).toEqual({
      code: 'Request_UnsupportedQuery',
      message: "Unsupported or invalid query filter clause specified for property 'jobTitle' of resource 'User'.",
    });
    expect(refusal("nickname eq 'x'")?.code).toBe('BadRequest');
    expect(refusal("displayName ne 'x'")?.message).toMatch(
      /^Operator 'ne' is not supported because the required parameters might be missing/,
    );
    expect(refusal("endswith(mail,'@contoso.com')")?.code).toBe('Request_UnsupportedQuery');
    expect(refusal("contains(mail,'x')")?.code).toBe('Request_UnsupportedQuery');
    expect(refusal("displayName ne 'x'", { ...USERS, advanced: true })).toBeUndefined();
    expect(refusal("endswith(mail,'@contoso.com')", { ...USERS, advanced: true })).toBeUndefined();
  });
});
