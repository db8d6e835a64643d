import { describe, expect, it } from 'vitest';
import { withoutOtherKindFields } from './kind-fields';

describe('withoutOtherKindFields', () => {
  it('drops a text question’s fields from a question switched to multiple choice', () => {
    const switched = {
      '@odata.type': '#microsoft.graph.accessPackageMultipleChoiceQuestion',
      text: 'Region?',
      isSingleLineQuestion: true,
      regexPattern: null,
      choices: [{ actualValue: 'eu', text: 'Europe', localizations: [] }],
    };
    expect(withoutOtherKindFields({ questions: [switched] })).toEqual({
      questions: [
        {
          '@odata.type': '#microsoft.graph.accessPackageMultipleChoiceQuestion',
          text: 'Region?',
          choices: [{ actualValue: 'eu', text: 'Europe', localizations: [] }],
        },
      ],
    });
  });

  it('drops a user approver’s id from an approver switched to the requestor’s manager, at any depth', () => {
    const values = {
      requestApprovalSettings: {
        stages: [
          { primaryApprovers: [{ '@odata.type': '#microsoft.graph.requestorManager', managerLevel: 1, userId: 'u1', description: null }] },
        ],
      },
    };
    expect(withoutOtherKindFields(values)).toEqual({
      requestApprovalSettings: {
        stages: [{ primaryApprovers: [{ '@odata.type': '#microsoft.graph.requestorManager', managerLevel: 1 }] }],
      },
    });
  });

  it('leaves untyped objects and unknown kinds as they are (the validation names what is wrong there)', () => {
    const values = { displayName: 'x', extra: { a: 1 }, targets: [{ '@odata.type': '#microsoft.graph.somethingNew', z: 1 }] };
    expect(withoutOtherKindFields(values)).toEqual(values);
  });
});
