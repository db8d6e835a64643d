import { Badge, Tabs } from '@mantine/core';
import type { AssignmentPolicyBody } from '@shared/contract/directory';
import { POLICY_TAB_LABELS, POLICY_TABS, type PolicyTab } from '../model/policy-problems';
import { ApprovalTab } from './tabs/ApprovalTab';
import { BasicsTab } from './tabs/BasicsTab';
import { ExtensionsTab } from './tabs/ExtensionsTab';
import { LifecycleTab } from './tabs/LifecycleTab';
import { QuestionsTab } from './tabs/QuestionsTab';
import { RequestsTab } from './tabs/RequestsTab';
import { ReviewsTab } from './tabs/ReviewsTab';
import { ReviewTab } from './tabs/ReviewTab';

/** The tabs that edit the policy, in the admin center's order; Review follows them. */
const EDIT_TABS: ReadonlyArray<{ value: Exclude<PolicyTab, 'review'>; Panel: (props: { packageName: string }) => React.ReactNode }> = [
  { value: 'basics', Panel: BasicsTab },
  { value: 'requests', Panel: RequestsTab },
  { value: 'approval', Panel: ApprovalTab },
  { value: 'questions', Panel: QuestionsTab },
  { value: 'lifecycle', Panel: LifecycleTab },
  { value: 'reviews', Panel: ReviewsTab },
  { value: 'extensions', Panel: ExtensionsTab },
];

const POLICIES_PATH = '/identityGovernance/entitlementManagement/assignmentPolicies';

export interface PolicyTabsProps {
  tab: PolicyTab;
  onTab(tab: PolicyTab): void;
  /** Problems found in each tab, shown as a count on it. */
  perTab: Partial<Record<PolicyTab, number>>;
  packageName: string;
  saved: AssignmentPolicyBody | null;
  policyId: string | undefined;
}

/** The policy form's tabs, each with its count of problems; Review is drawn only while it is shown. */
export function PolicyTabs({ tab, onTab, perTab, packageName, saved, policyId }: PolicyTabsProps) {
  return (
    <Tabs value={tab} onChange={(value) => onTab((value as PolicyTab) ?? 'basics')} keepMounted>
      <Tabs.List aria-label="Policy settings">
        {POLICY_TABS.map((value) => (
          <Tabs.Tab
            key={value}
            value={value}
            rightSection={
              perTab[value] ? (
                <Badge color="red" size="sm" circle aria-label={`${perTab[value]} ${perTab[value] === 1 ? 'problem' : 'problems'}`}>
                  {perTab[value]}
                </Badge>
              ) : null
            }
          >
            {POLICY_TAB_LABELS[value]}
          </Tabs.Tab>
        ))}
      </Tabs.List>
      {EDIT_TABS.map(({ value, Panel }) => (
        <Tabs.Panel key={value} value={value} pt="md">
          <Panel packageName={packageName} />
        </Tabs.Panel>
      ))}
      <Tabs.Panel value="review" pt="md">
        {tab === 'review' ? (
          <ReviewTab saved={saved} requestLine={policyId ? `PUT ${POLICIES_PATH}/${policyId}` : `POST ${POLICIES_PATH}`} />
        ) : null}
      </Tabs.Panel>
    </Tabs>
  );
}
