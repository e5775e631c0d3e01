import {
  checkSummary as checkAttachmentSummary,
  checkContentType,
  checkFileName,
} from '../../../shared/domain/bug/attachment.ts';
import { MAX_COMMENT_LENGTH, MAX_SUMMARY_LENGTH } from '../../../shared/domain/bug/bug.ts';
import {
  checkAlias,
  checkSeeAlso,
  checkSummary,
  checkUrl,
  checkWhiteboard,
} from '../../../shared/domain/bug/bugFieldRules.ts';
import { checkCommentTag } from '../../../shared/domain/bug/commentTags.ts';
import { characterCount } from '../../../shared/domain/inputLimits.ts';

/**
 * A source is not trusted (issue 41): every value the importer stores passes the rule a create
 * through the API applies to it (the domain's own checks, not copies of them), or is cleaned as
 * the API would have taken it, or is left out; `note` says what was changed, for the report. A
 * value that passes is kept exactly as the source has it (not the check's trimmed form), so an
 * import of a sound source stays identical to it.
 *
 * One-line fields (summaries, file names, the whiteboard, URLs, content types) never keep a
 * control character: CR, LF and tab become one space (as the API does with a summary's line
 * breaks), any other (NUL, ESC, ...) is removed.
 */
export interface Cleaned<T> {
  value: T;
  /** What was changed and why; absent when the value passed as it was. */
  note?: string;
}

const CONTROL = /[\u0000-\u001F\u007F]/;
const passes = (check: () => unknown): boolean => {
  try {
    check();
    return true;
  } catch {
    return false;
  }
};

/** CR, LF and tab runs as one space, other control characters removed. */
export const oneLine = (text: string): string => text.replace(/[\r\n\t]+/g, ' ').replace(/[\u0000-\u001F\u007F]/g, '');

const truncate = (text: string, characters: number): string =>
  characterCount(text) > characters ? Array.from(text).slice(0, characters).join('') : text;

export function cleanBugSummary(value: string): Cleaned<string> {
  if (!CONTROL.test(value) && passes(() => checkSummary(value))) return { value };
  const cleaned = truncate(oneLine(value).trim(), MAX_SUMMARY_LENGTH).trim() || '(no summary)';
  return { value: cleaned, note: 'control characters or line breaks replaced, or too long for a summary' };
}

export function cleanWhiteboard(value: string): Cleaned<string> {
  if (!CONTROL.test(value) && passes(() => checkWhiteboard(value))) return { value };
  return { value: oneLine(value).trim(), note: 'control characters or line breaks replaced' };
}

/** The bug's URL: as the API checks it, and only http(s) (a `javascript:` link would run in a reader's browser). */
export function cleanBugUrl(value: string): Cleaned<string> {
  if (value.trim() === '') return { value };
  const protocol = URL.canParse(value.trim()) ? new URL(value.trim()).protocol : '';
  const ok = !CONTROL.test(value) && passes(() => checkUrl(value)) && (protocol === 'http:' || protocol === 'https:');
  return ok ? { value } : { value: '', note: `not an http(s) URL (${JSON.stringify(truncate(value, 60))}): left out` };
}

/** The alias kept (the first valid one), or null, with a note for each one left out. */
export function cleanAliases(aliases: readonly string[]): { value: string | null; notes: string[] } {
  const notes: string[] = [];
  let kept: string | null = null;
  for (const alias of aliases) {
    let valid: string | null = null;
    try {
      valid = checkAlias(alias) === null ? null : alias;
    } catch (error) {
      notes.push(`alias ${JSON.stringify(truncate(alias, 60))} left out: ${(error as Error).message}`);
      continue;
    }
    if (valid === null) continue;
    if (kept === null) kept = valid;
    else notes.push(`alias ${JSON.stringify(alias)} left out: Tracker keeps one alias per bug (the first is kept)`);
  }
  return { value: kept, notes };
}

export function cleanSeeAlso(values: readonly string[]): { value: string[]; notes: string[] } {
  const notes: string[] = [];
  const value = values.filter((url) => {
    if (!CONTROL.test(url) && passes(() => checkSeeAlso(url))) return true;
    notes.push(`see_also ${JSON.stringify(truncate(url, 60))} left out: not an http(s) URL`);
    return false;
  });
  return { value, notes };
}

/** Comment tags the API would take; the others are left out. */
export function cleanCommentTags(tags: readonly string[]): { value: string[]; notes: string[] } {
  const notes: string[] = [];
  const value = tags.filter((tag) => {
    if (passes(() => checkCommentTag(tag)) && tag === tag.trim()) return true;
    notes.push(`tag ${JSON.stringify(truncate(tag, 60))} left out: not a valid comment tag`);
    return false;
  });
  return { value, notes };
}

/** Null when the comment is longer than any comment the API takes (it is then left out). */
export const commentTooLong = (text: string): string | null =>
  text.length > MAX_COMMENT_LENGTH && characterCount(text) > MAX_COMMENT_LENGTH
    ? `${characterCount(text)} characters, more than the ${MAX_COMMENT_LENGTH} a comment may have`
    : null;

/** Reduced to a base name as the API does (`../../x/a.txt` → `a.txt`), so no client writes outside its folder. */
export function cleanFileName(value: string): Cleaned<string> {
  if (!CONTROL.test(value) && passes(() => checkFileName(value)) && checkFileName(value) === value) return { value };
  let cleaned = 'attachment';
  try {
    cleaned = checkFileName(oneLine(value));
  } catch {
    // Nothing left of it (empty, or only a directory): a neutral name.
  }
  return {
    value: cleaned,
    note: `file name ${JSON.stringify(truncate(value, 80))} stored as ${JSON.stringify(cleaned)}`,
  };
}

export function cleanAttachmentSummary(value: string, fileName: string): Cleaned<string> {
  if (!CONTROL.test(value) && passes(() => checkAttachmentSummary(value))) return { value };
  const cleaned = truncate(oneLine(value).trim(), 255).trim() || fileName;
  return { value: cleaned, note: 'control characters or line breaks replaced, empty or too long' };
}

/** A content type the API would refuse (CR/LF, not a MIME type) is stored as plain bytes. */
export function cleanContentType(value: string): Cleaned<string> {
  if (passes(() => checkContentType(value)) && value === value.trim()) return { value };
  return {
    value: 'application/octet-stream',
    note: `content type ${JSON.stringify(truncate(value, 80))} is not a valid MIME type: stored as application/octet-stream`,
  };
}
