import type { Bug, HistoryEntry, PrivateAttachmentMark } from '../bug/bug.ts';
import { knownPrivateAttachments } from '../bug/privateActivity.ts';
import type { LegacyValueId } from '../catalog/bugValues.ts';
import { LeafTables } from './leafTables.ts';
import { TrigramIndex } from './trigramIndex.ts';
import { Vocabulary } from './vocabulary.ts';
import { addWords, decodePostings, encodePostings, removeSlot } from './wordPostings.ts';

/**
 * The in-memory search index of one function instance (docs/data-model.md §8.7): every bug's
 * searchable fields, stored by column. Numbers and the small vocabularies (status, priority,
 * platform, ...) live in typed arrays, so a criterion over 100,000 bugs is a tight loop over
 * contiguous memory; free text and relations are plain arrays. Comment bodies are not here.
 *
 * Rows ("slots") are never removed (Bugzilla does not delete bugs through the API); a changed bug
 * is rewritten in place. The index knows each bug's revision, so a change read twice (the
 * change log is read with an overlap window) or out of order is applied once, newest wins.
 */

/** A field change as the index keeps it, for changedbefore/after/from/to/by and chfield. */
export interface IndexedChange {
  field: string;
  at: number;
  who: number;
  removed: string;
  added: string;
  /** The attachment the change is about: hidden from outsiders while it is private (privateActivity.ts). */
  attachmentId?: number;
}

export interface IndexedFlag {
  typeId: number;
  status: string;
  setterId: number;
  requesteeId: number | null;
}

/** One bug as the change log and the snapshot carry it. */
export interface IndexDocument {
  bug: Bug;
  rev: number;
  /** History entries written with this revision (appended to the bug's indexed changes). */
  history?: HistoryEntry[];
  /** Words of the comments added with this revision (commentWords), public and private apart. */
  words?: string[];
  privateWords?: string[];
  /**
   * The words are all of the bug's comments, not just new ones: a comment's privacy changed, so
   * the bug's postings are replaced (its public words must stop matching for outsiders).
   */
  allWords?: boolean;
}

/**
 * The words of comment text as Bugzilla's full-text search sees them: letters, digits and `_`,
 * lowercased, two characters or more (and at most 40: longer runs are not words people search).
 */
export function commentWords(texts: readonly string[]): string[] {
  const words = new Set<string>();
  for (const text of texts) {
    for (const match of text.toLowerCase().matchAll(/[\p{L}\p{N}_]{2,40}/gu)) words.add(match[0]);
  }
  return [...words];
}

const CODE_COLUMNS = [
  'status',
  'resolution',
  'priority',
  'severity',
  'platform',
  'opSys',
  'bugType',
  'filedVia',
] as const;
export type CodeColumn = (typeof CODE_COLUMNS)[number];

export const LIST_COLUMNS = [
  'ccIds',
  'keywordIds',
  'groupIds',
  'dependsOn',
  'blocks',
  'regressedBy',
  'regressions',
  'duplicates',
] as const;
export type ListColumn = (typeof LIST_COLUMNS)[number];

/** The typed-array columns, one number per bug: grown together, and each a list of numbers in the snapshot. */
export const NUMBER_COLUMNS = [
  'id',
  'rev',
  'productId',
  'componentId',
  'versionId',
  'targetMilestoneId',
  'assigneeId',
  'reporterId',
  'qaContactId',
  'dupeOf',
  'commentCount',
  'privateCommentCount',
  'attachmentCount',
  'creationTime',
  'lastChangeTime',
  'deadline',
  'estimatedTime',
  'remainingTime',
  'actualTime',
  'bits',
] as const;

/** The bits of the `bits` column: a bug's yes/no fields, one bit each. */
export const CONFIRMED_BIT = 1;
export const CC_ACCESSIBLE_BIT = 2;
export const CREATOR_ACCESSIBLE_BIT = 4;

const EMPTY: readonly number[] = Object.freeze([]);
/** A private comment count not known yet (privateCommentCount). */
export const UNKNOWN_COUNT = -1;
const NO_CHANGES: readonly IndexedChange[] = Object.freeze([]);

const timeOf = (text: string | null | undefined): number =>
  text ? Date.parse(text.includes('T') ? text : `${text.replace(' ', 'T')}Z`) : Number.NaN;

/** Changes remembered for updating kept results; past this, they are computed afresh. */
const MAX_JOURNAL = 20_000;

function grow<T extends Int32Array | Float64Array | Uint8Array>(array: T, size: number): T {
  if (size <= array.length) return array;
  const next = new (array.constructor as new (length: number) => T)(Math.max(size, array.length * 2));
  next.set(array);
  return next;
}

export class SearchIndex {
  size = 0;
  /** The newest change-log time folded in (ms); catch-up reads from here minus an overlap. */
  highWater = 0;
  private readonly slots = new Map<number, number>();
  private readonly aliasSlots = new Map<string, number>();

  id = new Int32Array(1024);
  rev = new Int32Array(1024);
  productId = new Int32Array(1024);
  componentId = new Int32Array(1024);
  /** By id, like products and components: a rename of the value needs no change here (catalog/bugValues.ts). */
  versionId = new Int32Array(1024);
  targetMilestoneId = new Int32Array(1024);
  assigneeId = new Int32Array(1024);
  reporterId = new Int32Array(1024);
  /** 0 when there is none. */
  qaContactId = new Int32Array(1024);
  dupeOf = new Int32Array(1024);
  commentCount = new Int32Array(1024);
  /**
   * How many of the bug's comments are private: outsiders count only the others (longdescs.count).
   * UNKNOWN_COUNT for a bug read from a snapshot older than the column, until it is filled in
   * (searchIndexHolder.ts reads the bugs' counts) or the bug is written again.
   */
  privateCommentCount = new Int32Array(1024);
  attachmentCount = new Int32Array(1024);
  creationTime = new Float64Array(1024);
  lastChangeTime = new Float64Array(1024);
  deadline = new Float64Array(1024);
  estimatedTime = new Float64Array(1024);
  remainingTime = new Float64Array(1024);
  actualTime = new Float64Array(1024);
  /** isConfirmed, isCcAccessible and isCreatorAccessible, as CONFIRMED_BIT, CC_ACCESSIBLE_BIT, CREATOR_ACCESSIBLE_BIT. */
  bits = new Uint8Array(1024);
  /** 1 for a bug in at least one group: only those need the visibility rule (derived, not in the snapshot). */
  restricted = new Uint8Array(1024);

  readonly vocabularies: Record<CodeColumn, Vocabulary> = Object.fromEntries(
    CODE_COLUMNS.map((name) => [name, new Vocabulary()]),
  ) as Record<CodeColumn, Vocabulary>;
  codes: Record<CodeColumn, Int32Array> = Object.fromEntries(
    CODE_COLUMNS.map((name) => [name, new Int32Array(1024)]),
  ) as Record<CodeColumn, Int32Array>;

  readonly summary: string[] = [];
  readonly summaryLower: string[] = [];
  /** Built by the first summary substring search over many bugs, then kept up to date (trigramIndex.ts). */
  private trigrams?: TrigramIndex;
  /** Criteria results kept between searches (leafTables.ts). */
  readonly leafTables = new LeafTables();
  /** Each product's slots, ascending (the first `length` of `slots`); built on first use, extended as bugs are added. */
  private productSlots: Map<number, { slots: Int32Array; length: number }> | undefined;
  readonly whiteboard: string[] = [];
  /**
   * Whiteboards as codes into their distinct values: few bugs have one and many share the same
   * ("needs-triage"), so a whiteboard criterion tests each distinct text once.
   */
  whiteboardCode = new Int32Array(1024);
  readonly whiteboards = new Vocabulary();
  /** Aliases the same way: most bugs have none, so an alias criterion tests the few that exist. */
  aliasCode = new Int32Array(1024);
  readonly aliases = new Vocabulary();
  readonly alias: Array<string | null> = [];
  readonly url: string[] = [];
  readonly seeAlso: string[][] = [];
  readonly lists: Record<ListColumn, Array<readonly number[]>> = Object.fromEntries(
    LIST_COLUMNS.map((name) => [name, []]),
  ) as unknown as Record<ListColumn, Array<readonly number[]>>;
  readonly flags: Array<readonly IndexedFlag[]> = [];
  /** Personal tags by user id (only their owner may search them). */
  readonly tags: Array<Record<string, string[]> | null> = [];
  readonly custom: Array<Record<string, unknown> | null> = [];
  readonly changes: Array<readonly IndexedChange[]> = [];
  /**
   * The bug's private attachments now: outsiders neither count them nor find the bug by their
   * changes. Undefined while unknown: a bug with attachments stored before bugs listed them, until
   * the backfill stores its list (setPrivateAttachments) or a write brings it (privateActivity.ts).
   */
  readonly privateAttachments: Array<readonly PrivateAttachmentMark[] | undefined> = [];
  /**
   * Comment words → slots of the bugs with a comment containing them (an inverted index: the
   * comment bodies themselves stay in the table). Private comments' words are kept apart, for
   * the insiders who may search them.
   */
  readonly words = new Map<string, number[]>();
  readonly privateWords = new Map<string, number[]>();

  /** Every slot, in order: the candidates of a search that no product narrows. */
  allSlots(): Int32Array {
    if (!this.everySlot || this.everySlot.length !== this.size)
      this.everySlot = Int32Array.from({ length: this.size }, (_, slot) => slot);
    return this.everySlot;
  }

  private everySlot?: Int32Array;

  summaryTrigrams(): TrigramIndex {
    this.trigrams ??= TrigramIndex.build(this.summaryLower, this.size);
    return this.trigrams;
  }

  slotOf(bugId: number): number | undefined {
    return this.slots.get(bugId);
  }

  /** The slots of bugs in these products, in slot order. */
  slotsOfProducts(productIds: ReadonlySet<number>): Int32Array {
    if (!this.productSlots) {
      const lists = new Map<number, { slots: Int32Array; length: number }>();
      for (let slot = 0; slot < this.size; slot++) this.addProductSlot(lists, this.productId[slot], slot);
      this.productSlots = lists;
    }
    const wanted = [...productIds]
      .map((id) => this.productSlots!.get(id))
      .filter((list) => list !== undefined)
      .map((list) => list.slots.subarray(0, list.length));
    if (wanted.length === 1) return wanted[0];
    const merged = new Int32Array(wanted.reduce((sum, slots) => sum + slots.length, 0));
    let at = 0;
    for (const slots of wanted) {
      merged.set(slots, at);
      at += slots.length;
    }
    return merged.sort();
  }

  private addProductSlot(
    lists: Map<number, { slots: Int32Array; length: number }>,
    product: number,
    slot: number,
  ): void {
    let list = lists.get(product);
    if (!list) {
      list = { slots: new Int32Array(64), length: 0 };
      lists.set(product, list);
    }
    if (list.length === list.slots.length) list.slots = grow(list.slots, list.length * 2);
    list.slots[list.length++] = slot;
  }

  slotOfAlias(alias: string): number | undefined {
    return this.aliasSlots.get(alias.toLowerCase());
  }

  /** Folds in one bug revision; older or repeated revisions are ignored. Returns whether it changed the index. */
  apply(document: IndexDocument): boolean {
    const { bug, rev } = document;
    let slot = this.slots.get(bug.id);
    if (slot !== undefined && this.rev[slot] >= rev) return false;
    // A new bug joins its product's list (it takes the highest slot, so the list stays ascending); a bug that moves makes them all be rebuilt.
    if (slot !== undefined && this.productId[slot] !== bug.productId) this.productSlots = undefined;
    const added = slot === undefined;
    if (slot === undefined) {
      slot = this.size++;
      this.slots.set(bug.id, slot);
      this.ensureCapacity(this.size);
      this.changes[slot] = NO_CHANGES;
    }
    const previousAlias = this.alias[slot];
    if (previousAlias && this.aliasSlots.get(previousAlias.toLowerCase()) === slot)
      this.aliasSlots.delete(previousAlias.toLowerCase());
    if (bug.alias) this.aliasSlots.set(bug.alias.toLowerCase(), slot);

    this.id[slot] = bug.id;
    this.rev[slot] = rev;
    this.productId[slot] = bug.productId;
    if (added && this.productSlots) this.addProductSlot(this.productSlots, bug.productId, slot);
    this.componentId[slot] = bug.componentId;
    this.versionId[slot] = bug.versionId ?? 0;
    this.targetMilestoneId[slot] = bug.targetMilestoneId ?? 0;
    this.assigneeId[slot] = bug.assigneeId;
    this.reporterId[slot] = bug.reporterId;
    this.qaContactId[slot] = bug.qaContactId ?? 0;
    this.dupeOf[slot] = bug.dupeOf ?? 0;
    this.commentCount[slot] = bug.commentCount;
    this.privateCommentCount[slot] = bug.privateCommentCount ?? 0;
    this.attachmentCount[slot] = bug.attachmentCount ?? 0;
    this.creationTime[slot] = timeOf(bug.creationTime);
    this.lastChangeTime[slot] = timeOf(bug.lastChangeTime);
    this.deadline[slot] = timeOf(bug.deadline);
    this.estimatedTime[slot] = bug.estimatedTime ?? 0;
    this.remainingTime[slot] = bug.remainingTime ?? 0;
    this.actualTime[slot] = bug.actualTime ?? 0;
    this.bits[slot] =
      (bug.isConfirmed ? CONFIRMED_BIT : 0) |
      (bug.isCcAccessible ? CC_ACCESSIBLE_BIT : 0) |
      (bug.isCreatorAccessible ? CREATOR_ACCESSIBLE_BIT : 0);
    for (const column of CODE_COLUMNS)
      this.codes[column][slot] = this.vocabularies[column].code(String(bug[column] ?? ''));
    const summaryChanged = this.summary[slot] !== bug.summary;
    this.summary[slot] = bug.summary;
    this.summaryLower[slot] = bug.summary.toLowerCase();
    if (summaryChanged) this.trigrams?.add(slot);
    this.whiteboard[slot] = bug.whiteboard ?? '';
    this.whiteboardCode[slot] = this.whiteboards.code(bug.whiteboard ?? '');
    this.aliasCode[slot] = this.aliases.code(bug.alias ?? '');
    this.alias[slot] = bug.alias ?? null;
    this.url[slot] = bug.url ?? '';
    this.seeAlso[slot] = bug.seeAlso?.length ? bug.seeAlso : (EMPTY as unknown as string[]);
    for (const column of LIST_COLUMNS) {
      const values = bug[column] as number[] | undefined;
      this.lists[column][slot] = values && values.length > 0 ? values : EMPTY;
    }
    this.restricted[slot] = this.lists.groupIds[slot].length > 0 ? 1 : 0;
    this.flags[slot] = (bug.flags ?? []).map(({ typeId, status, setterId, requesteeId }) => ({
      typeId,
      status,
      setterId,
      requesteeId,
    }));
    this.tags[slot] = bug.tags && Object.keys(bug.tags).length > 0 ? bug.tags : null;
    this.custom[slot] = bug.custom && Object.keys(bug.custom).length > 0 ? bug.custom : null;
    const marks = knownPrivateAttachments(bug);
    this.privateAttachments[slot] = marks?.length === 0 ? (EMPTY as unknown as PrivateAttachmentMark[]) : marks;
    if (document.history?.length) {
      const added = document.history
        .filter((entry) => entry.bugId === bug.id)
        .flatMap((entry) =>
          entry.changes.map((change) => ({
            field: change.field_name,
            at: timeOf(entry.when),
            who: entry.whoId,
            removed: change.removed,
            added: change.added,
            ...(change.attachment_id === undefined ? {} : { attachmentId: change.attachment_id }),
          })),
        );
      if (added.length > 0) this.changes[slot] = [...this.changes[slot], ...added];
    }
    // A new slot is in no posting list: skipping the pass over the whole vocabulary keeps loading
    // many new bugs (an import, a catch-up) linear instead of bugs × vocabulary.
    if (document.allWords && !added) {
      removeSlot(this.words, slot);
      removeSlot(this.privateWords, slot);
    }
    addWords(this.words, document.words, slot);
    addWords(this.privateWords, document.privateWords, slot);
    this.touch(slot);
    return true;
  }

  /** Notes a changed slot in the journal (kept results are brought up to date from it). */
  private touch(slot: number): void {
    this.journal.push(slot);
    if (this.journal.length > MAX_JOURNAL) {
      const dropped = this.journal.length - MAX_JOURNAL / 2;
      this.journal.splice(0, dropped);
      this.journalStart += dropped;
    }
  }

  /**
   * The list the backfill stored on a bug item without changing its revision
   * (application/bug/privateActivityBackfill.ts): taken only while this index holds that very
   * revision, so a newer write, which carries its own list, is never undone.
   */
  setPrivateAttachments(bugId: number, rev: number, marks: readonly PrivateAttachmentMark[]): boolean {
    const slot = this.slots.get(bugId);
    if (slot === undefined || this.rev[slot] !== rev) return false;
    this.privateAttachments[slot] = marks.length === 0 ? (EMPTY as unknown as PrivateAttachmentMark[]) : marks;
    this.touch(slot);
    return true;
  }

  /** Bugs whose private comment count this index does not know (a snapshot older than the column). */
  bugsWithUnknownCommentCounts(): number[] {
    const ids: number[] = [];
    for (let slot = 0; slot < this.size; slot++)
      if (this.privateCommentCount[slot] === UNKNOWN_COUNT) ids.push(this.id[slot]);
    return ids;
  }

  /** Fills in a count bugsWithUnknownCommentCounts named, unless a write brought it meanwhile. */
  setPrivateCommentCount(bugId: number, count: number): void {
    const slot = this.slots.get(bugId);
    if (slot === undefined || this.privateCommentCount[slot] !== UNKNOWN_COUNT) return;
    this.privateCommentCount[slot] = count;
    this.touch(slot);
  }

  /** Slots changed by apply(), oldest first, for results kept between searches (leafTables.ts). */
  private readonly journal: number[] = [];
  private journalStart = 0;

  /** Counts every change applied: what a kept result was computed at. */
  get version(): number {
    return this.journalStart + this.journal.length;
  }

  /** The slots changed since `version` (new ones included, possibly repeated); null when that is too long ago to say. */
  changedSince(version: number): readonly number[] | null {
    if (version < this.journalStart) return null;
    return this.journal.slice(version - this.journalStart);
  }

  private ensureCapacity(size: number): void {
    if (size <= this.id.length) return;
    for (const name of NUMBER_COLUMNS) {
      (this as Record<string, unknown>)[name] = grow(this[name] as Int32Array, size);
    }
    for (const column of CODE_COLUMNS) this.codes[column] = grow(this.codes[column], size);
    this.whiteboardCode = grow(this.whiteboardCode, size);
    this.restricted = grow(this.restricted, size);
    this.aliasCode = grow(this.aliasCode, size);
  }

  // ---- snapshot form: columns as plain JSON arrays, compact enough to gzip into a few MB ----

  toSnapshot(): SnapshotColumns {
    const n = this.size;
    const take = (array: Int32Array | Float64Array | Uint8Array) =>
      Array.from(array.subarray(0, n), (value) => (Number.isNaN(value) ? null : value));
    return {
      version: 2,
      highWater: this.highWater,
      size: n,
      numbers: Object.fromEntries(NUMBER_COLUMNS.map((name) => [name, take(this[name])])),
      codes: Object.fromEntries(
        CODE_COLUMNS.map((column) => [
          column,
          { values: this.vocabularies[column].values, codes: take(this.codes[column]) },
        ]),
      ),
      summary: this.summary.slice(0, n),
      whiteboard: this.whiteboard.slice(0, n),
      alias: this.alias.slice(0, n),
      url: this.url.slice(0, n),
      seeAlso: this.seeAlso.slice(0, n).map((values) => (values.length ? values : 0)),
      lists: Object.fromEntries(
        LIST_COLUMNS.map((column) => [
          column,
          this.lists[column].slice(0, n).map((values) => (values.length ? values : 0)),
        ]),
      ),
      flags: this.flags
        .slice(0, n)
        .map((flags) =>
          flags.length ? flags.map((flag) => [flag.typeId, flag.status, flag.setterId, flag.requesteeId]) : 0,
        ),
      tags: this.tags.slice(0, n).map((tags) => tags ?? 0),
      custom: this.custom.slice(0, n).map((custom) => custom ?? 0),
      changes: this.changes.slice(0, n).map((changes) =>
        changes.length
          ? changes.map((change): SnapshotChange => {
              const row: SnapshotChange = [change.field, change.at, change.who, change.removed, change.added];
              if (change.attachmentId !== undefined) row.push(change.attachmentId);
              return row;
            })
          : 0,
      ),
      // A known empty list of a bug with attachments is `[]`; 0 is "as the bug item without a list":
      // none for a bug without attachments, unknown for one with them (as snapshots before `[]` wrote it).
      privateAttachments: this.privateAttachments
        .slice(0, n)
        .map((marks, slot) =>
          marks === undefined || (marks.length === 0 && this.attachmentCount[slot] === 0)
            ? 0
            : marks.map((mark): [number, number] => [mark.id, mark.creatorId]),
        ),
      words: encodePostings(this.words, this.id),
      privateWords: encodePostings(this.privateWords, this.id),
    };
  }

  /**
   * `legacyValueId` reads a snapshot of version 1, which held versions and milestones by name:
   * the id each name stands for in the bug's product (legacyBugValues.ts).
   */
  static fromSnapshot(snapshot: SnapshotColumns, legacyValueId?: LegacyValueId): SearchIndex {
    const index = new SearchIndex();
    const n = snapshot.size;
    index.size = n;
    index.highWater = snapshot.highWater;
    index.ensureCapacity(n);
    for (const [name, values] of Object.entries(snapshot.numbers)) {
      const target = (index as unknown as Record<string, Int32Array | Float64Array>)[name];
      for (let slot = 0; slot < n; slot++) target[slot] = values[slot] === null ? Number.NaN : values[slot]!;
    }
    // A snapshot older than the column: outsiders' comment counts wait for the bugs' own (UNKNOWN_COUNT).
    if (!snapshot.numbers.privateCommentCount) index.privateCommentCount.fill(UNKNOWN_COUNT, 0, n);
    for (const column of CODE_COLUMNS) {
      const { values, codes } = snapshot.codes[column];
      const remap = values.map((value) => index.vocabularies[column].code(value));
      for (let slot = 0; slot < n; slot++) index.codes[column][slot] = remap[codes[slot]!];
    }
    if (!snapshot.numbers.versionId && legacyValueId) {
      const legacy = [
        ['version', 'version', index.versionId],
        ['targetMilestone', 'milestone', index.targetMilestoneId],
      ] as const;
      for (const [column, kind, ids] of legacy) {
        const { values, codes } = snapshot.codes[column] ?? { values: [], codes: [] };
        for (let slot = 0; slot < n; slot++)
          ids[slot] = legacyValueId(kind, index.productId[slot], values[codes[slot] ?? -1] ?? '');
      }
    }
    for (let slot = 0; slot < n; slot++) {
      index.slots.set(index.id[slot], slot);
      index.summary[slot] = snapshot.summary[slot];
      index.summaryLower[slot] = snapshot.summary[slot].toLowerCase();
      index.whiteboard[slot] = snapshot.whiteboard[slot];
      index.whiteboardCode[slot] = index.whiteboards.code(snapshot.whiteboard[slot] ?? '');
      index.aliasCode[slot] = index.aliases.code(snapshot.alias[slot] ?? '');
      const alias = snapshot.alias[slot];
      index.alias[slot] = alias;
      if (alias) index.aliasSlots.set(alias.toLowerCase(), slot);
      index.url[slot] = snapshot.url[slot];
      index.seeAlso[slot] = snapshot.seeAlso[slot] || (EMPTY as unknown as string[]);
      for (const column of LIST_COLUMNS) index.lists[column][slot] = snapshot.lists[column][slot] || EMPTY;
      index.restricted[slot] = index.lists.groupIds[slot].length > 0 ? 1 : 0;
      const flags = snapshot.flags[slot];
      index.flags[slot] = flags
        ? flags.map(([typeId, status, setterId, requesteeId]) => ({ typeId, status, setterId, requesteeId }))
        : (EMPTY as unknown as IndexedFlag[]);
      index.tags[slot] = snapshot.tags[slot] || null;
      index.custom[slot] = snapshot.custom[slot] || null;
      const changes = snapshot.changes[slot];
      index.changes[slot] = changes
        ? changes.map(([field, at, who, removed, added, attachmentId]) =>
            attachmentId === undefined
              ? { field, at, who, removed, added }
              : { field, at, who, removed, added, attachmentId },
          )
        : NO_CHANGES;
      const marks = snapshot.privateAttachments?.[slot];
      index.privateAttachments[slot] = marks
        ? marks.map(([id, creatorId]) => ({ id, creatorId }))
        : index.attachmentCount[slot] > 0
          ? undefined
          : (EMPTY as unknown as PrivateAttachmentMark[]);
    }
    const slotOf = (id: number) => index.slots.get(id);
    decodePostings(snapshot.words, index.words, slotOf);
    decodePostings(snapshot.privateWords, index.privateWords, slotOf);
    return index;
  }
}

/** A change in the snapshot: field, time (ms), who, removed, added, and the attachment id when it names one. */
type SnapshotChange = [string, number, number, string, string] | [string, number, number, string, string, number];

export interface SnapshotColumns {
  /** 2: versions and milestones by id among `numbers`; 1 held them by name among `codes`. */
  version: 1 | 2;
  highWater: number;
  size: number;
  numbers: Record<string, Array<number | null>>;
  codes: Record<string, { values: string[]; codes: Array<number | null> }>;
  summary: string[];
  whiteboard: string[];
  alias: Array<string | null>;
  url: string[];
  seeAlso: Array<string[] | 0>;
  lists: Record<string, Array<number[] | 0 | readonly number[]>>;
  flags: Array<Array<[number, string, number, number | null]> | 0>;
  tags: Array<Record<string, string[]> | 0>;
  custom: Array<Record<string, unknown> | 0>;
  changes: Array<SnapshotChange[] | 0>;
  /**
   * `[attachment id, creator id]` of each private attachment; 0 where the bug has no list (none
   * without attachments, unknown with them). Absent from snapshots older than the field.
   */
  privateAttachments?: Array<Array<[number, number]> | 0>;
  words?: Record<string, number[]>;
  privateWords?: Record<string, number[]>;
}
