import { errors } from '../../errors.ts';

/**
 * Why a catalogue value is not deleted: Bugzilla 5.2's edit*.cgi user errors, which its WebService
 * would answer as 32000 (it has no code of their own), and Tracker's where it refuses instead of
 * changing bugs (docs/bugzilla-5.2-behaviour.md). Kept here, not in shared/errors.ts, so that only
 * the delete functions carry their text.
 */
export const refusals = {
  productHasBugs: (count: number) =>
    errors.invalidParameter(
      `There are ${count} bugs entered for this product! You must move those bugs to another product before you can delete this one.`,
    ),
  versionHasBugs: (count: number) =>
    errors.invalidParameter(
      `There are ${count} bugs associated with this version! You must reassign those bugs to another version before you can delete this one.`,
    ),
  versionIsLast: (version: string, product: string) =>
    errors.invalidParameter(`'${version}' is the last version of the '${product}' product. You cannot delete it.`),
  milestoneIsDefault: (milestone: string, product: string) =>
    errors.invalidParameter(
      `Sorry, but ${milestone} is the default milestone for the '${product}' product, and so it cannot be deleted.`,
    ),
  /** Tracker's: Bugzilla moves the bugs to the default milestone. */
  milestoneHasBugs: (count: number, milestone: string) =>
    errors.invalidParameter(
      `There are ${count} bugs targeted at the milestone ${milestone}! You must move those bugs to another milestone before you can delete this one, or disable the milestone instead.`,
    ),
  /** Tracker's: Bugzilla removes the keyword from its bugs. */
  keywordInUse: (count: number, keyword: string) =>
    errors.invalidParameter(
      `There are ${count} bugs with the keyword ${keyword}! You must remove it from those bugs before you can delete it, or deactivate the keyword instead.`,
    ),
  /** Tracker's: Bugzilla deletes the type's flags. */
  flagTypeInUse: (type: string, bugs: number, attachments: number) =>
    errors.invalidParameter(
      `There are ${bugs + attachments} ${type} flags set (${bugs} on bugs, ${attachments} on attachments)! You must clear those flags before you can delete the flag type, or deactivate it instead.`,
    ),
};
