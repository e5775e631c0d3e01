import * as z from 'zod';
import type { BugzillaClient } from '../bugzillaClient.ts';
import { isUnknownRoute } from '../sourceErrors.ts';
import { type FieldRecord, type KeywordRecord, keywordSchema } from '../sourceRecords.ts';

/**
 * Keywords with their descriptions. Tracker has a keyword route (ids, active flag); Bugzilla 5.0,
 * 5.2 and Harmony do not, and list them as the `keywords` field's values instead.
 */
export async function readKeywords(client: BugzillaClient, fields: readonly FieldRecord[]): Promise<KeywordRecord[]> {
  try {
    return z.object({ keywords: z.array(keywordSchema) }).parse(await client.get('/keyword')).keywords;
  } catch (error) {
    if (!isUnknownRoute(error)) throw error;
  }
  const values = fields.find((field) => field.name === 'keywords')?.values ?? [];
  return values.map((value) => ({
    id: null,
    name: value.name,
    description: value.description ?? '',
    isActive: value.isActive,
  }));
}
