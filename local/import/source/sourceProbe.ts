import * as z from 'zod';
import type { BugzillaClient, KeyTransport } from './bugzillaClient.ts';
import {
  BugzillaApiError,
  ImportStopped,
  isUnknownRoute,
  SourceProbeError,
  SourceRequestError,
} from './sourceErrors.ts';
import { type GroupRecord, groupSchema, idSchema } from './sourceRecords.ts';

/**
 * Before anything is read: what is this source, does the key work, and what will an import from
 * it lack? The answer decides how the rest is read (`keyTransport`) and goes into the report, so
 * an operator learns before the run, not after, that private comments will be missing because
 * the key's account is not an insider.
 *
 * - **Kind** from `/rest/version` and `/rest/extensions`, both asked without the key so that a
 *   bad key still gets "this is Bugzilla 5.2, and the key is wrong": Tracker lists itself as an
 *   extension; Harmony/BMO reports a dated version (`20200805.1`) and lists its `BMO` extension;
 *   otherwise the version number says 5.0 or 5.2.
 * - **Account** from `/rest/whoami` (Harmony, Tracker). Stock 5.0 and 5.2 have no such route:
 *   there `valid_login` checks the key, and the account is found among the `admin` group's
 *   members (`valid_login?login=` says which one is us) or, for a non-administrator, as the user
 *   whose `saved_searches` are shown (Bugzilla shows them for one's own account only).
 * - **Rights** from the account's own groups (complete for one's own account) and the
 *   `insidergroup` / `timetrackinggroup` parameters (readable with tweakparams).
 */

export type SourceKind = 'bugzilla-5.0' | 'bugzilla-5.2' | 'harmony' | 'tracker';

export interface SourceAccount {
  id: number;
  login: string;
  realName: string;
  /** Names of the groups the account is in (derived memberships included). */
  groups: string[];
}

export interface SourceCapabilities {
  /** Member of `admin`. */
  admin: boolean;
  /** Every user's details and full group list; group member lists. */
  editusers: boolean;
  /** Every group, with regexp, active and bug-group flags. */
  creategroups: boolean;
  /** Every parameter (the insider and time-tracking groups' names among them). */
  tweakparams: boolean;
  /** Tracker's product group controls. */
  editcomponents: boolean;
  /** Private comments and attachments; null when the insider group's name could not be read. */
  insider: boolean | null;
  /** Hours, deadlines and work time; null when the time-tracking group's name could not be read. */
  timetracking: boolean | null;
}

export interface SourceProbe {
  baseUrl: string;
  kind: SourceKind;
  /** As `/rest/version` says it. */
  version: string;
  /** Extension name → version. */
  extensions: Record<string, string>;
  /** How the key must travel: stock 5.0/5.2 read only the `Bugzilla_api_key` parameter. */
  keyTransport: KeyTransport;
  account: SourceAccount | null;
  capabilities: SourceCapabilities;
  /** The parameters the account could read; null when none could be. */
  parameters: Record<string, string> | null;
  /** Bug groups the account is not in: bugs restricted to them are invisible (null: unknown). */
  hiddenBugGroups: string[] | null;
  /** What an import with this key will lack, one sentence each; empty for a full administrator. */
  missing: string[];
  /** What this kind of source never exposes over REST, whoever asks. */
  notExposed: string[];
  /** Things the operator should know that do not stop the import. */
  warnings: string[];
}

const versionSchema = z.object({ version: z.string().min(1) });
const extensionsSchema = z.object({
  extensions: z.record(z.string(), z.object({ version: z.union([z.string(), z.number()]).optional() }).loose()),
});
const whoamiSchema = z.object({ id: idSchema, name: z.string(), real_name: z.string().nullish() });
const ownUserSchema = z.object({
  users: z.array(
    z.object({
      id: idSchema,
      name: z.string(),
      real_name: z.string().nullish(),
      groups: z.array(z.object({ name: z.string() })).nullish(),
      saved_searches: z.unknown().optional(),
    }),
  ),
});

export async function probeSource(client: BugzillaClient): Promise<SourceProbe> {
  const version = await readVersion(client);
  const extensions = await readExtensions(client);
  const kind = kindOf(version, extensions);
  const warnings: string[] = [];
  if (kind === null)
    throw new SourceProbeError(
      'unsupported-version',
      `${client.baseUrl} is Bugzilla ${version}: the importer reads Bugzilla 5.0 and 5.2, Harmony/BMO and Tracker.`,
    );
  if (kind === 'bugzilla-5.2' && !/^5\.[12](\D|$)/.test(version))
    warnings.push(`Bugzilla ${version} is read as Bugzilla 5.2, the closest version the importer knows.`);

  const account = await identify(client, kind, warnings);
  const groups = new Set(account?.groups ?? []);
  const parameters = await readParameters(client);
  const memberOf = (parameter: string): boolean | null => {
    const group = parameters?.[parameter];
    if (group === undefined) return null;
    return group !== '' && groups.has(group);
  };
  const capabilities: SourceCapabilities = {
    admin: groups.has('admin'),
    editusers: groups.has('editusers'),
    creategroups: groups.has('creategroups'),
    tweakparams: groups.has('tweakparams'),
    editcomponents: groups.has('editcomponents'),
    insider: memberOf('insidergroup'),
    timetracking: memberOf('timetrackinggroup'),
  };
  const hiddenBugGroups = await bugGroupsOutside(client, groups, capabilities);
  return {
    baseUrl: client.baseUrl,
    kind,
    version,
    extensions,
    keyTransport: kind === 'tracker' || kind === 'harmony' ? 'header' : 'query',
    account,
    capabilities,
    parameters,
    hiddenBugGroups,
    missing: missingWith(capabilities, parameters, hiddenBugGroups, account),
    notExposed: NOT_EXPOSED[kind],
    warnings,
  };
}

/** The kind of source, or null for a Bugzilla older than the REST API the importer reads. */
export function kindOf(version: string, extensions: Record<string, string>): SourceKind | null {
  if ('Tracker' in extensions) return 'tracker';
  if ('BMO' in extensions || /^\d{8}(\.\d+)?\b/.test(version)) return 'harmony';
  const match = /^(\d+)\.(\d+)/.exec(version);
  if (!match) return null;
  const [major, minor] = [Number(match[1]), Number(match[2])];
  if (major !== 5) return major > 5 ? 'harmony' : null;
  if (minor === 0) return 'bugzilla-5.0';
  return minor >= 9 ? 'harmony' : 'bugzilla-5.2';
}

async function readVersion(client: BugzillaClient): Promise<string> {
  let answer: unknown;
  try {
    answer = await client.get('/version', {}, { anonymous: true });
  } catch (error) {
    if (error instanceof ImportStopped) throw error;
    // Down (network, timeout, 5xx after the retries) is not the same as "answers, but not as Bugzilla".
    const message = error instanceof Error ? error.message : String(error);
    const failure = error instanceof SourceRequestError ? error.failure : null;
    const serverError = error instanceof SourceRequestError && (error.httpStatus ?? 0) >= 500;
    if (failure === 'network' || failure === 'timeout' || (failure === 'http' && serverError))
      throw new SourceProbeError('unreachable', `${client.baseUrl} cannot be reached: ${message}`, error);
    throw notBugzilla(client, message, error);
  }
  const parsed = versionSchema.safeParse(answer);
  if (!parsed.success) throw notBugzilla(client, '/version answers JSON without a version', answer);
  return parsed.data.version;
}

function notBugzilla(client: BugzillaClient, detail: string, cause: unknown): SourceProbeError {
  const hint = /\/rest(\.cgi)?$/.test(client.baseUrl)
    ? ''
    : ` (Bugzilla's REST API is usually at ${client.baseUrl}/rest)`;
  return new SourceProbeError('not-bugzilla', `${client.baseUrl} is not a Bugzilla REST API: ${detail}${hint}`, cause);
}

async function readExtensions(client: BugzillaClient): Promise<Record<string, string>> {
  try {
    const parsed = extensionsSchema.parse(await client.get('/extensions', {}, { anonymous: true }));
    return Object.fromEntries(
      Object.entries(parsed.extensions).map(([name, extension]) => [name, String(extension.version ?? '')]),
    );
  } catch (error) {
    if (error instanceof BugzillaApiError || error instanceof z.ZodError) return {};
    throw error;
  }
}

/** Errors that mean the key is wrong or missing, whatever the route. */
function keyRefusal(error: unknown): SourceProbeError | null {
  if (error instanceof BugzillaApiError && [306, 410, 300, 301, 302, 303].includes(error.code))
    return new SourceProbeError(
      'bad-key',
      error.code === 410
        ? 'The source wants an API key, and none was given (--api-key).'
        : `The API key is not valid on the source (Bugzilla error ${error.code}: ${error.bugzillaMessage}).`,
      error,
    );
  if (error instanceof SourceRequestError && (error.httpStatus === 401 || error.httpStatus === 403))
    return new SourceProbeError('bad-key', `The source refused the API key (HTTP ${error.httpStatus}).`, error);
  return null;
}

async function identify(client: BugzillaClient, kind: SourceKind, warnings: string[]): Promise<SourceAccount | null> {
  let found: { id: number; login: string; realName: string } | null = null;
  try {
    const whoami = whoamiSchema.parse(await client.get('/whoami'));
    found = { id: whoami.id, login: whoami.name, realName: whoami.real_name ?? '' };
  } catch (error) {
    const refusal = keyRefusal(error);
    if (refusal) throw refusal;
    if (!isUnknownRoute(error)) throw error;
    found = await identifyWithoutWhoami(client);
  }
  if (found === null) {
    warnings.push(
      `The key works, but its account could not be identified (${kind} has no whoami route), so its rights are unknown.`,
    );
    return null;
  }
  const own = ownUserSchema.parse(await client.get(`/user/${found.id}`, { include_fields: 'id,name,real_name,groups' }))
    .users[0];
  return { ...found, groups: (own?.groups ?? []).map((group) => group.name) };
}

/** Stock 5.0/5.2: check the key, then find which user it belongs to. */
async function identifyWithoutWhoami(
  client: BugzillaClient,
): Promise<{ id: number; login: string; realName: string } | null> {
  const isMe = async (login: string) => {
    try {
      const answer = await client.get<unknown>('/valid_login', { login });
      const result = typeof answer === 'object' && answer !== null ? (answer as { result?: unknown }).result : answer;
      return result === true || result === 1;
    } catch (error) {
      throw keyRefusal(error) ?? error;
    }
  };
  await isMe('tracker-import-probe.invalid');
  try {
    const admins = z
      .object({ groups: z.array(groupSchema) })
      .parse(await client.get('/group', { names: 'admin', membership: 1 })).groups[0]?.members;
    for (const member of admins ?? [])
      if (await isMe(member.login)) return { id: member.id, login: member.login, realName: '' };
  } catch (error) {
    if (!(error instanceof BugzillaApiError) || keyRefusal(error)) throw keyRefusal(error) ?? error;
  }
  // Not an administrator (or not one Bugzilla lists): look for the user shown with saved searches.
  for (let from = 1; from <= 1000; from += 100) {
    const idsOfBatch = Array.from({ length: 100 }, (_, index) => from + index);
    try {
      const { users } = ownUserSchema.parse(
        await client.get('/user', { ids: idsOfBatch, include_fields: 'id,name,real_name,saved_searches' }),
      );
      const me = users.find((user) => user.saved_searches !== undefined);
      if (me) return { id: me.id, login: me.name, realName: me.real_name ?? '' };
    } catch (error) {
      if (!(error instanceof BugzillaApiError) || keyRefusal(error)) throw keyRefusal(error) ?? error;
    }
  }
  return null;
}

async function readParameters(client: BugzillaClient): Promise<Record<string, string> | null> {
  try {
    const { parameters } = z
      .object({ parameters: z.record(z.string(), z.unknown()) })
      .parse(await client.get('/parameters'));
    return Object.fromEntries(Object.entries(parameters).map(([name, value]) => [name, String(value ?? '')]));
  } catch (error) {
    if (error instanceof BugzillaApiError || error instanceof z.ZodError) return null;
    throw error;
  }
}

async function bugGroupsOutside(
  client: BugzillaClient,
  groups: Set<string>,
  capabilities: SourceCapabilities,
): Promise<string[] | null> {
  if (!capabilities.creategroups) return null;
  try {
    const all: GroupRecord[] = z.object({ groups: z.array(groupSchema) }).parse(await client.get('/group')).groups;
    return all
      .filter((group) => group.isBugGroup && !groups.has(group.name))
      .map((group) => group.name)
      .sort();
  } catch (error) {
    if (error instanceof BugzillaApiError) return null;
    throw error;
  }
}

function missingWith(
  can: SourceCapabilities,
  parameters: Record<string, string> | null,
  hiddenBugGroups: string[] | null,
  account: SourceAccount | null,
): string[] {
  const missing: string[] = [];
  if (account === null) missing.push('anything an administrator would see: the account and its rights are unknown');
  else if (!can.admin) missing.push(`everything only administrators see: ${account.login} is not in the admin group`);
  if (!can.editusers)
    missing.push(
      "users' e-mail settings, disabled-account texts and full group lists, and the members of groups (not in editusers)",
    );
  if (!can.creategroups)
    missing.push(
      "groups' regular expressions, active and bug-group flags, and every group the account cannot bless (not in creategroups)",
    );
  const group = (name: string) => (parameters?.[name] ? ` "${parameters[name]}"` : '');
  if (can.insider === false)
    missing.push(`private comments and private attachments (not in the insider group${group('insidergroup')})`);
  if (can.insider === null)
    missing.push(
      'private comments and attachments, unless the account is an insider (the parameters are not readable)',
    );
  if (can.timetracking === false)
    missing.push(
      `estimated, remaining and actual hours, deadlines and hours worked (not in the time-tracking group${group('timetrackinggroup')})`,
    );
  if (can.timetracking === null)
    missing.push('hours and deadlines, unless the account tracks time (the parameters are not readable)');
  if (hiddenBugGroups === null)
    missing.push('bugs in groups the account is not in (which groups those are cannot be read without creategroups)');
  else if (hiddenBugGroups.length > 0)
    missing.push(
      `bugs restricted to groups the account is not in: ${hiddenBugGroups.join(', ')} (add the account to them to import those bugs)`,
    );
  return missing;
}

const BUGZILLA_NOT_EXPOSED = [
  'product group controls (which groups restrict each product)',
  "components' initial CC lists",
  "flag types' inclusions and exclusions (only the components that list a type are known) and their CC lists' grant rules",
  'which group memberships are direct and which come from a regular expression or a system group',
  'which priorities, severities, platforms, operating systems, statuses and resolutions are disabled',
  "users' passwords, API keys, preferences, bless rights and other users' saved searches",
];

const NOT_EXPOSED: Record<SourceKind, string[]> = {
  'bugzilla-5.0': [...BUGZILLA_NOT_EXPOSED, 'keyword ids', 'bug types (5.0 has none)'],
  'bugzilla-5.2': [...BUGZILLA_NOT_EXPOSED, 'keyword ids', 'bug types (5.2 has none)'],
  harmony: [...BUGZILLA_NOT_EXPOSED, 'keyword ids'],
  tracker: ["components' initial CC lists", "users' passwords, API keys, preferences and other users' saved searches"],
};
