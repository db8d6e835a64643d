import fc from 'fast-check';
import { describe, it } from 'vitest';
import { fuzzBudget, fuzzTimeout, valueOrTypedError } from '../../test-support/fuzz-budget';
import { TimeZones } from './time-zones';
import { parseEventPatch } from './event-model';
import { GraphError } from './graph-error';
import { parseExpand, parseSelect } from './odata-query';
import { parsePolicyBody } from './policy-body';

const QUERY_PARTS = [
  'id',
  'displayName',
  'accessPackage',
  '($select=id,displayName)',
  '($expand=x)',
  ',',
  '(',
  ')',
  '$select=',
  ' ',
  'policies',
  'catalog',
];
const NAVIGATION = {
  accessPackage: { type: 'accessPackage', properties: ['id', 'displayName'], navigation: ['catalog'] },
  catalog: { type: 'accessPackageCatalog', properties: ['id'] },
};

describe('fuzz: Graph query options and request bodies', () => {
  it(
    '$select and $expand of any text give a value or a GraphError',
    () => {
      const text = fc.oneof(
        fc.string({ maxLength: 80 }),
        fc.array(fc.constantFrom(...QUERY_PARTS), { maxLength: 12 }).map((p) => p.join('')),
      );
      fc.assert(
        fc.property(text, (t) =>
          valueOrTypedError(() => {
            parseSelect(t, 'accessPackageAssignmentPolicy', ['id', 'displayName', 'description']);
            parseExpand(t, 'accessPackageAssignmentPolicy', NAVIGATION);
          }, GraphError),
        ),
        fuzzBudget(),
      );
    },
    fuzzTimeout(),
  );

  it(
    "event and policy bodies of any JSON give a value or a GraphError (or the schema's error)",
    () => {
      const zones = new TimeZones();
      const event = fc.dictionary(
        fc.constantFrom(
          'subject',
          'body',
          'start',
          'end',
          'isAllDay',
          'location',
          'attendees',
          'categories',
          'recurrence',
          'showAs',
          'sensitivity',
          'nope',
          '@odata.type',
        ),
        fc.jsonValue(),
        { maxKeys: 6 },
      );
      fc.assert(
        fc.property(
          event,
          fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue(), { maxKeys: 5 }),
          (body, policy) =>
            valueOrTypedError(() => parseEventPatch(body as Record<string, unknown>, zones), GraphError) &&
            valueOrTypedError(() => parsePolicyBody(policy as Record<string, unknown>), GraphError),
        ),
        fuzzBudget(),
      );
    },
    fuzzTimeout(),
  );
});
