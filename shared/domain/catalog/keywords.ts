import { errors } from '../../errors.ts';
import { characterCount, checkNameCharacters } from '../inputLimits.ts';

/**
 * Keywords: the legal values of the bugs' `keywords` field, kept by members of editkeywords.
 * Names are unique without regard to case, and cannot hold spaces or commas (a bug's keyword
 * list is written comma-and-space separated).
 */
export const EDITKEYWORDS_GROUP = 'editkeywords';
const MAX_KEYWORD_NAME_LENGTH = 64;

export interface Keyword {
  /** Revision when read (see catalog.ts Revised). */
  rev?: number;
  id: number;
  name: string;
  description: string;
  isActive: boolean;
}

export function checkKeywordName(name: string | undefined): string {
  const trimmed = (name ?? '').trim();
  checkNameCharacters(trimmed, 'keyword name');
  if (trimmed === '') throw errors.invalidParameter('You must enter a non-blank name for the keyword.');
  if (/[\s,]/.test(trimmed))
    throw errors.invalidParameter(`You may not use commas or whitespace in a keyword name: '${trimmed}'.`);
  if (characterCount(trimmed) > MAX_KEYWORD_NAME_LENGTH)
    throw errors.invalidParameter(`Keyword names can be at most ${MAX_KEYWORD_NAME_LENGTH} characters long.`);
  return trimmed;
}

export function checkKeywordDescription(description: string | undefined): string {
  const trimmed = (description ?? '').trim();
  if (trimmed === '') throw errors.invalidParameter('You must enter a non-blank description of the keyword.');
  return trimmed;
}

export const sameKeywordName = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();

/** By name, case-insensitively, as Bugzilla lists them. */
export const byKeywordName = (a: Keyword, b: Keyword): number =>
  a.name.toLowerCase().localeCompare(b.name.toLowerCase()) || a.id - b.id;

export function keywordView(keyword: Keyword): Record<string, unknown> {
  return { id: keyword.id, name: keyword.name, description: keyword.description, is_active: keyword.isActive };
}

/** Finds a keyword by id (digits) or else by name, case-insensitively. */
export function resolveKeyword(reference: string | number, keywords: readonly Keyword[]): Keyword | undefined {
  const text = String(reference);
  const byId = /^\d+$/.test(text) ? keywords.find((keyword) => keyword.id === Number(text)) : undefined;
  return byId ?? keywords.find((keyword) => sameKeywordName(keyword.name, text));
}
