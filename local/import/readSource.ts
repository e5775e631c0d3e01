import type { Progress } from './progress.ts';
import {
  BugzillaApiError,
  type BugzillaClient,
  type ClassificationRecord,
  type FieldRecord,
  type FlagTypeRecord,
  type GroupRecord,
  type KeywordRecord,
  type ProductRecord,
  readClassifications,
  readFields,
  readFlagTypes,
  readGroups,
  readKeywords,
  readProducts,
  readUsers,
  type SourceProbe,
  type UserRecord,
} from './source/index.ts';

/**
 * Everything but the bugs, read before anything is written: the writers need the ids of all of
 * it (a component names its default assignee, a flag type its groups), and it is small next to
 * the bugs. Users are read by id until ten empty batches in a row (readUsers), at most `maxUsers`. An account that
 * may list no groups gets none (the probe's `missing` says so; bugs' groups are then skipped).
 */
export interface SourceData {
  fields: FieldRecord[];
  products: ProductRecord[];
  classifications: ClassificationRecord[];
  keywords: KeywordRecord[];
  flagTypes: FlagTypeRecord[];
  groups: GroupRecord[];
  users: UserRecord[];
  parameters: Record<string, string> | null;
}

export async function readSource(
  source: BugzillaClient,
  probe: SourceProbe,
  progress: Progress,
  options: { maxUsers?: number } = {},
): Promise<SourceData> {
  const phase = progress.phase('read', 6, 'parts');
  const [fields, products, groups] = await Promise.all([
    readFields(source),
    readProducts(source),
    // Outside creategroups, editusers and bless rights Bugzilla lists no group at all (805).
    readGroups(source).catch((error: unknown) => {
      if (error instanceof BugzillaApiError) return [];
      throw error;
    }),
  ]);
  phase.tick(3);
  const [classifications, keywords, flagTypes] = await Promise.all([
    readClassifications(source, fields),
    readKeywords(source, fields),
    readFlagTypes(source, products),
  ]);
  phase.tick(2);
  const users: UserRecord[] = [];
  for await (const batch of readUsers(source, { maxUsers: options.maxUsers })) users.push(...batch.users);
  phase.tick();
  phase.done();
  return { fields, products, classifications, keywords, flagTypes, groups, users, parameters: probe.parameters };
}
