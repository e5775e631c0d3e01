import { errors } from '../../errors.ts';
import { type Caller, inGroup, isLoggedIn } from '../identity/caller.ts';
import { characterCount } from '../inputLimits.ts';
import type { Parameters } from '../instance/parameters.ts';

/**
 * Comment tags (Bugzilla's longdescs_tags): short labels such as "spam" or "needinfo" that the
 * members of `comment_taggers_group` put on comments. Unlike personal bug tags they are shared:
 * everyone who can read the comment sees them.
 */
const MIN_COMMENT_TAG_LENGTH = 3;
const MAX_COMMENT_TAG_LENGTH = 24;
export const DEFAULT_TAG_SEARCH_LIMIT = 10;

/** Letters, digits and a few punctuation marks: a tag must survive comma- and space-separated lists. */
const TAG = /^[\p{L}\p{N}_.-]+$/u;

/** Whether tagging is switched on (a group is named) and the caller is in that group. */
export function mayTagComments(caller: Caller, parameters: Parameters): boolean {
  const group = parameters.comment_taggers_group ?? '';
  return group !== '' && isLoggedIn(caller) && inGroup(caller, group);
}

/** 125 unless tagging is switched on (a group is named) and the caller is in that group. */
export function assertMayTagComments(caller: Caller, parameters: Parameters): void {
  const group = parameters.comment_taggers_group ?? '';
  if (group === '') throw errors.commentTaggingDisabled('Comment tagging is disabled on this installation.');
  if (!mayTagComments(caller, parameters)) {
    throw errors.commentTaggingDisabled(`Comment tagging is only available to members of the ${group} group.`);
  }
}

/** A tag as typed, trimmed; 127 too short, 128 too long, 126 for anything but letters, digits, '_', '.', '-'. */
export function checkCommentTag(value: unknown): string {
  const tag = typeof value === 'string' || typeof value === 'number' ? String(value).trim() : '';
  if (characterCount(tag) < MIN_COMMENT_TAG_LENGTH)
    throw errors.commentTagTooShort(
      `The comment tag '${tag}' is too short: at least ${MIN_COMMENT_TAG_LENGTH} characters.`,
    );
  if (characterCount(tag) > MAX_COMMENT_TAG_LENGTH)
    throw errors.commentTagTooLong(
      `The comment tag '${tag}' is too long: at most ${MAX_COMMENT_TAG_LENGTH} characters.`,
    );
  if (!TAG.test(tag))
    throw errors.invalidCommentTag(
      `The comment tag '${tag}' contains characters that are not allowed: use letters, digits, '_', '.' and '-'.`,
    );
  return tag;
}

export const sortTags = (tags: readonly string[]): string[] =>
  [...tags].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()) || a.localeCompare(b));

/**
 * A comment's tags after adding and removing, case-insensitively (a tag already there in another
 * case stays as it was first written), with the tags that really came and went.
 */
export function changeCommentTags(current: readonly string[], add: readonly string[], remove: readonly string[]) {
  const has = (tags: readonly string[], tag: string) =>
    tags.some((existing) => existing.toLowerCase() === tag.toLowerCase());
  let tags = [...current];
  const added: string[] = [];
  const removed: string[] = [];
  for (const tag of add) {
    if (has(tags, tag)) continue;
    tags.push(tag);
    added.push(tag);
  }
  for (const tag of remove) {
    const existing = tags.find((candidate) => candidate.toLowerCase() === tag.toLowerCase());
    if (!existing) continue;
    tags = tags.filter((candidate) => candidate !== existing);
    if (added.includes(existing)) added.splice(added.indexOf(existing), 1);
    else removed.push(existing);
  }
  return { tags: sortTags(tags), added, removed };
}
