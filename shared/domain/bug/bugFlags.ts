import { errors } from '../../errors.ts';
import type { FlagType } from '../catalog/flagTypes.ts';
import type { Caller } from '../identity/caller.ts';
import type { Parameters } from '../instance/parameters.ts';
import type { Bug, BugFlag, FlagStatus } from './bug.ts';
import { canSeeBug, type GroupName, isInsider } from './bugAccess.ts';

/**
 * Setting, requesting and clearing flags on a bug (or an attachment): Bugzilla's flag input
 * objects and every flag type rule (active, requestable, requesteeble, multiplicable, grant and
 * request groups), with errors 129–134 and 51.
 */
export interface FlagInput {
  id?: number;
  type_id?: number;
  name?: string;
  status?: string;
  requestee?: string;
  new?: boolean;
}

export interface FlagRules {
  /** The flag types that apply to the bug's product and component, with this target type. */
  types: readonly FlagType[];
  callerId: number;
  inGroupId(groupId: number): boolean;
  /** A requestee's user id, or undefined when no such user exists. */
  userIdOf(login: string): number | undefined;
  /** What decides who may be asked. */
  requestees: RequesteeRules;
  now: string;
  /** Hands out a fresh flag id for each flag created. */
  nextFlagId(): number;
}

/**
 * Who may be asked for a flag, as Bugzilla's _check_requestee decides: only someone who can see
 * the bug, and for a flag on a private attachment only an insider. A request names its requestee
 * in the flag, in history and in the requestee's own request list: asking someone else would
 * tell them of a bug or attachment they may not read. Nor a disabled account, nor (for a type
 * with a grant group) someone outside it: neither could set the flag they are asked for.
 */
export interface RequesteeRules {
  /**
   * The bug the flags are on, as this request leaves it (its groups, CC list, assignee): Bugzilla
   * checks the stored bug, which lets a change that hides the bug ask someone who then cannot see it.
   */
  bug: Bug;
  /** The attachment the flags are on, as this request leaves it; absent for a bug's own flags. */
  attachment?: { id: number; isPrivate: boolean };
  /** A requestee with their groups; undefined when they could not be read, and then they are refused. */
  requestee(userId: number): Caller | undefined;
  groupName: GroupName;
  parameters: Parameters;
}

/**
 * Refuses a requestee who could not answer: a disabled account, someone who cannot see what the
 * flag is on (Bugzilla's two flag_requestee_unauthorized errors), or someone outside the type's
 * grant group, who could not set the flag they are asked for. In Bugzilla's order.
 */
function assertMayBeAsked(userId: number, login: string, type: FlagType, rules: RequesteeRules): void {
  const { bug, attachment, groupName, parameters } = rules;
  const requestee = rules.requestee(userId);
  const name = requestee?.user?.login ?? login;
  if (requestee?.user?.disabledText) throw errors.flagRequesteeDisabled(name, type.name);
  if (!requestee || !canSeeBug(requestee, bug, groupName, parameters.or_groups === '1'))
    throw errors.flagRequesteeUnauthorized(name, type.name, bug.id, attachment?.id);
  if (attachment?.isPrivate && !isInsider(requestee, parameters))
    throw errors.flagRequesteeUnauthorizedAttachment(name, type.name, bug.id, attachment.id);
  if (type.grantGroupId !== null) {
    // A grant group that no longer exists admits no one, as for the caller's own flags.
    const grantGroup = groupName(type.grantGroupId);
    if (grantGroup === undefined || !requestee.groups.has(grantGroup))
      throw errors.flagRequesteeNeedsPrivileges(name, type.name, grantGroup ?? `#${type.grantGroupId}`);
  }
}

const STATUSES = ['?', '+', '-', 'X'];

function findType(input: FlagInput, rules: FlagRules, allTypes: readonly FlagType[]): FlagType {
  if (input.type_id !== undefined) {
    const type = rules.types.find((candidate) => candidate.id === Number(input.type_id));
    if (!type) {
      const exists = allTypes.some((candidate) => candidate.id === Number(input.type_id));
      throw errors.notFound(
        exists
          ? `The flag type ${input.type_id} does not apply to this bug's product and component.`
          : `There is no flag type with the id '${input.type_id}'.`,
      );
    }
    return type;
  }
  const name = String(input.name ?? '');
  const matches = rules.types.filter((candidate) => candidate.name === name);
  if (matches.length === 0)
    throw errors.notFound(`There is no flag type named '${name}' for this bug's product and component.`);
  if (matches.length > 1)
    throw errors.flagTypeNotUnique(
      `The flag type name '${name}' matches several flag types; give the type_id instead.`,
    );
  return matches[0];
}

function checkPermission(type: FlagType, status: string, rules: FlagRules, previous?: BugFlag): void {
  const mayGrant = type.grantGroupId === null || rules.inGroupId(type.grantGroupId);
  const mayRequest = mayGrant || type.requestGroupId === null || rules.inGroupId(type.requestGroupId);
  const needsGrant =
    status === '+' || status === '-' || (status === 'X' && previous !== undefined && previous.status !== '?');
  if (needsGrant ? mayGrant : mayRequest) return;
  const action = !needsGrant ? 'request' : status === 'X' ? 'clear' : status === '+' ? 'grant' : 'deny';
  throw errors.flagChangeDenied(`You are not allowed to ${action} the flag '${type.name}'.`);
}

/** Applies flag inputs in order; returns the bug's (or attachment's) flags afterwards. */
export function applyFlagInputs(
  current: readonly BugFlag[],
  inputs: readonly FlagInput[],
  rules: FlagRules,
  allTypes: readonly FlagType[] = rules.types,
): BugFlag[] {
  let flags = [...current];
  for (const input of inputs) {
    if (input === null || typeof input !== 'object')
      throw errors.invalidParameter('Each flag must be an object with a status and a name, type_id or id.');
    const status = input.status === undefined ? undefined : String(input.status);
    if (status === undefined || !STATUSES.includes(status)) {
      throw errors.invalidFlagStatus(`The flag status '${status ?? ''}' is invalid: use ?, +, - or X.`);
    }
    let existing: BugFlag | undefined;
    let type: FlagType;
    if (input.id !== undefined && !input.new) {
      existing = flags.find((flag) => flag.id === Number(input.id));
      if (!existing) throw errors.notFound(`There is no flag with the id '${input.id}' here.`);
      const known = allTypes.find((candidate) => candidate.id === existing!.typeId);
      if (!known) throw errors.notFound(`The flag ${input.id} has an unknown type.`);
      type = known;
    } else {
      if (input.type_id === undefined && (input.name === undefined || input.name === '')) {
        throw errors.invalidParameter('A flag needs a name, a type_id or an id.');
      }
      type = findType(input, rules, allTypes);
      if (!input.new) {
        const ofType = flags.filter((flag) => flag.typeId === type.id);
        if (ofType.length > 1)
          throw errors.flagNotUnique(`The flag '${type.name}' is set several times; give the id of the one to change.`);
        existing = ofType[0];
      } else if (!type.isMultiplicable && flags.some((flag) => flag.typeId === type.id)) {
        throw errors.invalidParameter(`The flag '${type.name}' can be set only once here.`);
      }
    }

    if (status === 'X') {
      if (!existing) continue;
      checkPermission(type, status, rules, existing);
      flags = flags.filter((flag) => flag !== existing);
      continue;
    }
    if (!existing && !type.isActive)
      throw errors.inactiveFlagType(`The flag type '${type.name}' is inactive and cannot be used for new flags.`);
    if (status === '?' && !type.isRequestable)
      throw errors.invalidFlagStatus(`The flag '${type.name}' cannot be requested.`);

    let requesteeId: number | null = null;
    const requestee = input.requestee === undefined || input.requestee === null ? '' : String(input.requestee).trim();
    if (requestee !== '' && status === '?') {
      if (!type.isRequesteeble)
        throw errors.flagNotRequestableFromPerson(
          `The flag '${type.name}' cannot be requested from a specific person.`,
        );
      const id = rules.userIdOf(requestee);
      if (id === undefined) throw errors.notFound(`There is no user named '${requestee}' to request the flag from.`);
      // As in Bugzilla, only a newly named requestee is checked: one already asked may stay asked.
      if (id !== existing?.requesteeId) assertMayBeAsked(id, requestee, type, rules.requestees);
      requesteeId = id;
    }
    if (existing && existing.status === status && existing.requesteeId === requesteeId) continue;
    checkPermission(type, status, rules, existing);
    const next: BugFlag = {
      id: existing?.id ?? rules.nextFlagId(),
      typeId: type.id,
      status: status as FlagStatus,
      setterId: rules.callerId,
      requesteeId,
      creationDate: existing?.creationDate ?? rules.now,
      modificationDate: rules.now,
    };
    flags = existing ? flags.map((flag) => (flag === existing ? next : flag)) : [...flags, next];
  }
  return flags;
}

/** Bugzilla's flag text in history and `changes`: `name?(requestee)`, `name+`. */
export function flagLabel(flag: BugFlag, typeName: (id: number) => string, login: (id: number) => string): string {
  return `${typeName(flag.typeId)}${flag.status}${flag.requesteeId !== null ? `(${login(flag.requesteeId)})` : ''}`;
}

/** The spec's flag object, on bugs and attachments alike. */
export function flagView(flag: BugFlag, typeName: (id: number) => string, login: (id: number) => string) {
  return {
    id: flag.id,
    name: typeName(flag.typeId),
    type_id: flag.typeId,
    creation_date: flag.creationDate,
    modification_date: flag.modificationDate,
    status: flag.status,
    setter: login(flag.setterId),
    ...(flag.requesteeId !== null ? { requestee: login(flag.requesteeId) } : {}),
  };
}
