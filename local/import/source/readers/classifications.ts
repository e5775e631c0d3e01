import * as z from 'zod';
import { type BugzillaClient, segment } from '../bugzillaClient.ts';
import { BugzillaApiError } from '../sourceErrors.ts';
import { type ClassificationRecord, classificationSchema, type FieldRecord } from '../sourceRecords.ts';

/**
 * Classifications. Bugzilla lists them nowhere but in the `classification` field's values, and
 * reads them one by one (`GET /rest/classification/<name>`). That route refuses callers outside
 * editclassifications when `useclassification` is off: the names and sort keys from the field
 * values are then all there is.
 */
export async function readClassifications(
  client: BugzillaClient,
  fields: readonly FieldRecord[],
): Promise<ClassificationRecord[]> {
  const values = fields.find((field) => field.name === 'classification')?.values ?? [];
  const answer = z.object({ classifications: z.array(classificationSchema) });
  return Promise.all(
    values.map(async (value): Promise<ClassificationRecord> => {
      try {
        const [found] = answer.parse(await client.get(`/classification/${segment(value.name)}`)).classifications;
        if (found) return found;
      } catch (error) {
        if (!(error instanceof BugzillaApiError)) throw error;
      }
      return { id: null, name: value.name, description: '', sortKey: value.sortKey };
    }),
  );
}
