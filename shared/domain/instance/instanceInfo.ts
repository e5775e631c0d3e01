import packageJson from '../../../package.json' with { type: 'json' };
import { toBugzillaDateTime } from '../time.ts';

/**
 * Instance information. Tracker speaks the Bugzilla 5.2 API, so it reports that version (clients
 * such as python-bugzilla choose features by it) and its own version as an extension.
 */
export const API_VERSION = '5.2';
export const TRACKER_VERSION: string = packageJson.version;

export const version = () => ({ version: API_VERSION });

/**
 * Tracker's own extensions, as Bugzilla lists its installed ones: Tracker itself, and FieldValues,
 * the administrator routes that edit the built-in fields' legal values and the workflow
 * (`/rest/field/bug/{field}/values`, `/rest/field/bug/bug_status/workflow`), which an importer
 * uses to bring a Bugzilla's own priorities, statuses and workflow across; and OpenAPI, the API's
 * OpenAPI 3.1 description at `/rest/openapi.json`.
 */
export const extensions = () => ({
  extensions: {
    Tracker: { version: TRACKER_VERSION },
    FieldValues: { version: TRACKER_VERSION },
    OpenAPI: { version: TRACKER_VERSION },
  },
});

export const timezone = () => ({ timezone: '+0000' });

/** DynamoDB has no clock to ask, so the database time is the server's, which is UTC on Lambda. */
export function serverTime(now: Date) {
  const stamp = toBugzillaDateTime(now);
  return {
    db_time: stamp,
    web_time: stamp,
    web_time_utc: stamp,
    tz_name: 'UTC',
    tz_short_name: 'UTC',
    tz_offset: '+0000',
  };
}

/** Tracker runs no background job queue: mail and other side effects happen within the request. */
export const jobQueueStatus = () => ({ total: 0, errors: 0 });
