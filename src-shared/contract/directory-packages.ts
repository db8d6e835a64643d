import { z } from 'zod';
import { defineService, method } from './define-service';
import { assignmentPolicySchema } from './directory';

// Catalogs and their access packages, each package with its assignment policies: what the
// Directory section lists before a policy is opened in the editor.

const catalogSchema = z
  .object({
    id: z.string(),
    displayName: z.string().nullish(),
    description: z.string().nullish(),
    state: z.string().nullish(),
    catalogType: z.string().nullish(),
  })
  .loose();
export type Catalog = z.infer<typeof catalogSchema>;

const accessPackageSchema = z
  .object({
    id: z.string(),
    displayName: z.string().nullish(),
    description: z.string().nullish(),
    isHidden: z.boolean().nullish(),
    modifiedDateTime: z.string().nullish(),
    catalog: catalogSchema.nullish(),
    assignmentPolicies: z.array(assignmentPolicySchema).default([]),
  })
  .loose();
export type AccessPackage = z.infer<typeof accessPackageSchema>;

/** A catalog's custom workflow extension (a Logic App a policy may call at a stage of a request). */
const customWorkflowExtensionSchema = z
  .object({
    id: z.string(),
    displayName: z.string().nullish(),
    description: z.string().nullish(),
  })
  .loose();
export type CustomWorkflowExtension = z.infer<typeof customWorkflowExtensionSchema>;

export const directoryPackagesService = defineService({
  name: 'directoryPackages',
  methods: {
    catalogs: method(z.void(), z.array(catalogSchema)),
    /** Every access package with its catalog and its policies (Graph pages followed to the end). */
    packages: method(z.void(), z.array(accessPackageSchema)),
    /** The catalog's custom workflow extensions, for the policy editor's extension picker. */
    customExtensions: method(z.object({ catalogId: z.string().trim().min(1).max(200) }), z.array(customWorkflowExtensionSchema)),
  },
  events: {},
});
