import type { Bug, PrivateAttachmentMark } from '../../bug/bug.ts';
import { knownPrivateAttachments } from '../../bug/privateActivity.ts';
import { ChangeHistory } from './changeHistory.ts';
import { ColumnBitmaps } from './columnBitmaps.ts';
import {
  CC_ACCESSIBLE_BIT,
  CODE_COLUMNS,
  CONFIRMED_BIT,
  type CodeColumn,
  CREATOR_ACCESSIBLE_BIT,
  type DeferredPart,
  EMPTY,
  type IndexDocument,
  type IndexedFlag,
  LIST_COLUMNS,
  type ListColumn,
  NOT_READ_BACK_BIT,
  READS_BACK_BIT,
  SLOT_COLUMNS,
  type SlotColumn,
  type TypedColumn,
  timeOf,
  UNKNOWN_COUNT,
} from './columns.ts';
import { IdLists } from './idLists.ts';
import { indexedFlag, readsBack, rebuildBug } from './indexedBugs.ts';
import { LeafTables } from './leafTables.ts';
import { PostingLists } from './postingLists.ts';
import { SlotDirectory } from './slotDirectory.ts';
import { emptyList, emptyRecord, emptyText, SparseColumn } from './sparseColumn.ts';
import { TrigramIndex } from './trigramIndex.ts';
import { Vocabulary } from './vocabulary.ts';

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

/** Changes remembered for updating kept results; past this, they are computed afresh. */
const MAX_JOURNAL = 20_000;

/**
 * A search needed a part of the index that a cold instance reads after the rest
 * (snapshotColumns.ts DEFERRED_PARTS) before it arrived: the caller waits for the part and runs
 * the search again (application/search/searchIndexHolder.ts). Nothing was changed.
 */
export class IndexPartPending extends Error {
  constructor(readonly part: DeferredPart) {
    super(`the search index's ${part} part is still being read`);
    this.name = 'IndexPartPending';
  }
}

export function grow<T extends Int32Array | Float64Array | Uint8Array>(array: T, size: number): T {
  if (size <= array.length) return array;
  const next = new (array.constructor as new (length: number) => T)(Math.max(size, array.length * 2));
  next.set(array);
  return next;
}

/** Slots per block of smallestIdFrom's minimums (4,096): a million bugs are 245 blocks. */
const ID_BLOCK_BITS = 12;

export class SearchIndex {
  size = 0;
  /** The newest change-log time folded in (ms); catch-up reads from here minus an overlap. */
  highWater = 0;
  /** @internal the snapshot reader sets it (snapshotColumns.ts). */
  slots = new SlotDirectory();

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

  /**
   * Every bug's summary. A cold instance keeps the snapshot's text as it came (when it is ASCII,
   * as most are) and cuts it into a million strings only when a search first needs them all: a
   * page reads its own bugs' summaries with summaryAt, and cutting them cost its first answer
   * 0.4 s at a million bugs, most of it collecting garbage.
   */
  get summary(): string[] {
    const stored = this.storedSummaries;
    if (stored) {
      this.storedSummaries = undefined;
      const text = stored.bytes.toString('latin1');
      const strings = this.summaryStrings;
      let from = 0;
      for (let slot = 0; slot < stored.ends.length; slot++) {
        strings[slot] = text.slice(from, stored.ends[slot]);
        from = stored.ends[slot]!;
      }
      for (const [slot, summary] of stored.changed) strings[slot] = summary;
    }
    return this.summaryStrings;
  }

  /** One bug's summary, without cutting every summary out of the snapshot's text. */
  summaryAt(slot: number): string {
    const stored = this.storedSummaries;
    if (!stored) return this.summaryStrings[slot]!;
    const changed = stored.changed.get(slot);
    if (changed !== undefined) return changed;
    if (slot >= stored.ends.length) return this.summaryStrings[slot]!;
    return stored.bytes.toString('latin1', slot === 0 ? 0 : stored.ends[slot - 1]!, stored.ends[slot]!);
  }

  /** Summaries as a snapshot holds them: ASCII text and each one's end (snapshotColumns.ts). */
  keepStoredSummaries(bytes: Uint8Array, ends: Uint32Array): void {
    this.summaryStrings.length = 0;
    // One Buffer over the text, so each summary read is one slice of it.
    this.storedSummaries = {
      bytes: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
      ends,
      changed: new Map(),
    };
  }

  private setSummary(slot: number, summary: string): void {
    if (this.storedSummaries) this.storedSummaries.changed.set(slot, summary);
    else this.summaryStrings[slot] = summary;
  }

  private readonly summaryStrings: string[] = [];
  private storedSummaries: { bytes: Buffer; ends: Uint32Array; changed: Map<number, string> } | undefined;

  /**
   * The summaries lower-cased, for substring criteria and the trigrams: made on first use, then
   * kept up to date. A cold instance's first answer rarely needs them, and at a million bugs they
   * cost half a second to make.
   */
  get summaryLower(): string[] {
    if (!this.loweredSummaries) {
      const lowered = new Array<string>(this.size);
      const summaries = this.summary;
      for (let slot = 0; slot < this.size; slot++) lowered[slot] = summaries[slot]!.toLowerCase();
      this.loweredSummaries = lowered;
    }
    return this.loweredSummaries;
  }

  private loweredSummaries: string[] | undefined;
  /**
   * Built by the first summary substring search over many bugs, or read with the snapshot, then
   * kept up to date (trigramIndex.ts). @internal
   */
  get trigrams(): TrigramIndex | undefined {
    this.requirePart('trigrams');
    return this.trigramStore;
  }
  set trigrams(value: TrigramIndex | undefined) {
    this.trigramStore = value;
  }
  private trigramStore?: TrigramIndex;
  /** Criteria results kept between searches (leafTables.ts). */
  readonly leafTables = new LeafTables();
  /** Each product's slots, ascending (the first `length` of `slots`); built on first use, extended as bugs are added. */
  private productSlots: Map<number, { slots: Int32Array; length: number }> | undefined;
  readonly whiteboard = new SparseColumn<string>('', emptyText);
  /**
   * Whiteboards as codes into their distinct values: few bugs have one and many share the same
   * ("needs-triage"), so a whiteboard criterion tests each distinct text once.
   */
  whiteboardCode = new Int32Array(1024);
  readonly whiteboards = new Vocabulary();
  /** Aliases the same way: most bugs have none, so an alias criterion tests the few that exist. */
  aliasCode = new Int32Array(1024);
  readonly aliases = new Vocabulary();
  readonly alias = new SparseColumn<string | null>(null, emptyText);
  readonly url = new SparseColumn<string>('', emptyText);
  readonly seeAlso = new SparseColumn<readonly string[]>(EMPTY as unknown as readonly string[], emptyList);
  readonly lists: Record<ListColumn, IdLists> = Object.fromEntries(
    LIST_COLUMNS.map((name) => [name, new IdLists()]),
  ) as unknown as Record<ListColumn, IdLists>;
  readonly flags = new SparseColumn<readonly IndexedFlag[]>(EMPTY as unknown as readonly IndexedFlag[], emptyList);
  /** Personal tags by user id (only their owner may search them). */
  readonly tags = new SparseColumn<Record<string, string[]> | null>(null, emptyRecord);
  readonly custom = new SparseColumn<Record<string, unknown> | null>(null, emptyRecord);
  /** Every bug's field history, by column (changeHistory.ts). */
  get history(): ChangeHistory {
    this.requirePart('history');
    return this.historyStore;
  }
  set history(value: ChangeHistory) {
    this.historyStore = value;
  }
  private historyStore = new ChangeHistory();
  /**
   * The bug's private attachments now: outsiders neither count them nor find the bug by their
   * changes. Undefined while unknown: a bug with attachments stored before bugs listed them, until
   * the backfill stores its list (setPrivateAttachments) or a write brings it (privateActivity.ts).
   */
  privateAttachmentsAt(slot: number): readonly PrivateAttachmentMark[] | undefined {
    const marks = this.attachmentMarks.get(slot);
    if (marks !== null) return marks;
    return this.attachmentCount[slot]! > 0 ? undefined : (EMPTY as unknown as readonly PrivateAttachmentMark[]);
  }
  /**
   * Sets the list (undefined: unknown) after the bug's attachment count. Only lists that say more
   * than the count are kept: a bug without attachments has no private ones, and a bug with
   * attachments and no list kept is one whose list is unknown.
   */
  setPrivateAttachmentsAt(slot: number, marks: readonly PrivateAttachmentMark[] | undefined): void {
    const kept = marks !== undefined && (marks.length > 0 || this.attachmentCount[slot]! > 0);
    this.attachmentMarks.set(slot, kept ? marks : null);
  }
  /** The lists privateAttachmentsAt cannot tell from the attachment count, by slot. */
  readonly attachmentMarks = new SparseColumn<readonly PrivateAttachmentMark[] | null>(null, (marks) => marks === null);
  /**
   * Comment words → slots of the bugs with a comment containing them (an inverted index: the
   * comment bodies themselves stay in the table). Private comments' words are kept apart, for
   * the insiders who may search them.
   */
  get words(): PostingLists<string> {
    this.requirePart('words');
    return this.wordStore;
  }
  set words(value: PostingLists<string>) {
    this.wordStore = value;
  }
  get privateWords(): PostingLists<string> {
    this.requirePart('words');
    return this.privateWordStore;
  }
  set privateWords(value: PostingLists<string>) {
    this.privateWordStore = value;
  }
  private wordStore = new PostingLists<string>();
  private privateWordStore = new PostingLists<string>();

  /**
   * Parts not read yet (a cold instance reads them after the core), each with the changes
   * applied since, in order: attachIndexPart (snapshot/indexSnapshot.ts) replays them on the part
   * as the snapshot holds it.
   */
  private readonly pendingParts = new Map<DeferredPart, Array<() => void>>();

  /** The parts this index is still waiting for. */
  get missingParts(): DeferredPart[] {
    return [...this.pendingParts.keys()];
  }

  private requirePart(part: DeferredPart): void {
    if (this.pendingParts.has(part)) throw new IndexPartPending(part);
  }

  /** Runs a change of a part now, or when the part arrives. */
  private whenPart(part: DeferredPart, change: () => void): void {
    const pending = this.pendingParts.get(part);
    if (pending) pending.push(change);
    else change();
  }

  /** @internal the snapshot reader (snapshot/indexSnapshot.ts): these parts come later, by attachIndexPart. */
  awaitParts(parts: Iterable<DeferredPart>): void {
    for (const part of parts) this.pendingParts.set(part, []);
  }

  /** Whether the part is still awaited. */
  awaits(part: DeferredPart): boolean {
    return this.pendingParts.has(part);
  }

  /** @internal the part was read into the index: replays what was applied since the snapshot. */
  partAttached(part: DeferredPart): void {
    const pending = this.pendingParts.get(part);
    if (!pending) return;
    this.pendingParts.delete(part);
    // The slots of these changes are in the journal already: apply() noted them when they came.
    for (const change of pending) change();
  }

  /**
   * Bitmaps of slots by value of the column `name` (columnBitmaps.ts), current with the index;
   * null for a column of too many distinct values. `values` is the column as it is now.
   */
  bitmapsOf(name: string, values: ArrayLike<number>): ColumnBitmaps | null {
    const held = this.bitmaps.get(name);
    if (held === null) return null;
    if (held) {
      if (held.version === this.version) return held;
      const changed = this.changedSince(held.version);
      if (changed && held.update(values, this.size, changed, this.version)) return held;
    }
    const built = ColumnBitmaps.build(values, this.size, this.version);
    this.bitmaps.set(name, built);
    return built;
  }

  private readonly bitmaps = new Map<string, ColumnBitmaps | null>();

  /** Every slot, in order: the candidates of a search that no product narrows. */
  allSlots(): Int32Array {
    if (this.everySlot?.length === this.size) return this.everySlot;
    // Made with room, so that the next bugs created take a view rather than a new million slots.
    if (!this.slotCounting || this.slotCounting.length < this.size) {
      this.slotCounting = new Int32Array(this.size + (this.size >> 3) + 1024);
      for (let slot = 0; slot < this.slotCounting.length; slot++) this.slotCounting[slot] = slot;
    }
    this.everySlot = this.slotCounting.subarray(0, this.size);
    return this.everySlot;
  }

  private everySlot?: Int32Array;
  /** 0, 1, 2… past the index's size: allSlots views it. */
  private slotCounting?: Int32Array;

  /**
   * The smallest bug id at `slot` or after it: a search that stops early (firstMatches.ts) knows
   * that no slot left untested holds a smaller id than the page it has.
   */
  smallestIdFrom(slot: number): number {
    const mins = this.idBlockMins();
    const block = slot >> ID_BLOCK_BITS;
    let smallest = Number.POSITIVE_INFINITY;
    const blockEnd = Math.min(this.size, (block + 1) << ID_BLOCK_BITS);
    for (let at = slot; at < blockEnd; at++) if (this.id[at]! < smallest) smallest = this.id[at]!;
    for (let next = block + 1; next < mins.length; next++) if (mins[next]! < smallest) smallest = mins[next]!;
    return smallest;
  }

  /** The smallest id of each block of slots. A slot's id never changes, so only slots added since are folded in. */
  private idBlockMins(): Int32Array {
    if (this.idMinsUpTo === this.size) return this.idMins;
    const blocks = (this.size + (1 << ID_BLOCK_BITS) - 1) >> ID_BLOCK_BITS;
    if (blocks > this.idMins.length) {
      const grown = new Int32Array(blocks).fill(0x7fffffff);
      grown.set(this.idMins);
      this.idMins = grown;
    }
    for (let slot = this.idMinsUpTo; slot < this.size; slot++) {
      const block = slot >> ID_BLOCK_BITS;
      if (this.id[slot]! < this.idMins[block]!) this.idMins[block] = this.id[slot]!;
    }
    this.idMinsUpTo = this.size;
    return this.idMins;
  }

  private idMins = new Int32Array(0);
  private idMinsUpTo = 0;

  summaryTrigrams(): TrigramIndex {
    this.requirePart('trigrams');
    this.trigramStore ??= TrigramIndex.build(this.summaryLower, this.size);
    return this.trigramStore;
  }

  slotOf(bugId: number): number | undefined {
    return this.slots.get(bugId);
  }

  /**
   * The bug at a slot as the table holds it at the index's revision, when the columns give it
   * back exactly (indexedBugs.ts); undefined when it must be read from the table.
   */
  bugAt(slot: number): Bug | undefined {
    return this.readsBack(slot) ? rebuildBug(this, slot) : undefined;
  }

  /** Whether bugAt gives the bug at this slot (without rebuilding it). */
  readsBack(slot: number): boolean {
    if ((this.bits[slot]! & READS_BACK_BIT) === 0) return false;
    // Both may become unknown after apply: a snapshot older than the column, the backfill's list.
    return this.privateCommentCount[slot] !== UNKNOWN_COUNT && this.privateAttachmentsAt(slot) !== undefined;
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

  /** Folds in one bug revision; older or repeated revisions are ignored. Returns whether it changed the index. */
  apply(document: IndexDocument): boolean {
    const slot = this.slots.get(document.bug.id);
    if (slot !== undefined && this.rev[slot] >= document.rev) return false;
    this.write(document);
    return true;
  }

  /**
   * The bug as the table holds it at the revision the index has (the compactor's reread of bugs a
   * snapshot from before READS_BACK_BIT left unknown): same revision, so nothing it says is newer,
   * but its columns are set afresh and whether they give it back is decided.
   */
  takeFromTable(bug: Bug, rev: number): boolean {
    const slot = this.slots.get(bug.id);
    if (slot === undefined || this.rev[slot] !== rev) return false;
    this.write({ bug, rev });
    return true;
  }

  /** A bug the table no longer holds at all: its page reads the table (and finds nothing), and it is not reread. */
  markNotReadBack(bugId: number): void {
    const slot = this.slots.get(bugId);
    if (slot !== undefined && (this.bits[slot]! & READS_BACK_BIT) === 0) this.bits[slot]! |= NOT_READ_BACK_BIT;
  }

  /** Up to `limit` bugs whose slots do not say whether the columns give them back (takeFromTable). */
  bugsNotCheckedForReadBack(limit: number): number[] {
    const ids: number[] = [];
    const either = READS_BACK_BIT | NOT_READ_BACK_BIT;
    for (let slot = 0; slot < this.size && ids.length < limit; slot++)
      if ((this.bits[slot]! & either) === 0) ids.push(this.id[slot]!);
    return ids;
  }

  private write(document: IndexDocument): void {
    const { bug, rev } = document;
    let slot = this.slots.get(bug.id);
    // A new bug joins its product's list (it takes the highest slot, so the list stays ascending); a bug that moves makes them all be rebuilt.
    if (slot !== undefined && this.productId[slot] !== bug.productId) this.productSlots = undefined;
    const added = slot === undefined;
    if (slot === undefined) {
      slot = this.size++;
      this.slots.set(bug.id, slot);
      this.ensureCapacity(this.size);
    }

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
    const summaryChanged = added || this.summaryAt(slot) !== bug.summary;
    this.setSummary(slot, bug.summary);
    if (this.loweredSummaries) this.loweredSummaries[slot] = bug.summary.toLowerCase();
    if (summaryChanged) this.whenPart('trigrams', () => this.trigramStore?.add(slot));
    this.whiteboard.set(slot, bug.whiteboard);
    this.whiteboardCode[slot] = this.whiteboards.code(bug.whiteboard ?? '');
    this.aliasCode[slot] = this.aliases.code(bug.alias ?? '');
    this.alias.set(slot, bug.alias);
    this.url.set(slot, bug.url);
    this.seeAlso.set(slot, bug.seeAlso);
    for (const column of LIST_COLUMNS) this.lists[column].set(slot, (bug[column] as number[] | undefined) ?? EMPTY);
    this.restricted[slot] = this.lists.groupIds.length(slot) > 0 ? 1 : 0;
    this.flags.set(slot, bug.flags?.map(indexedFlag));
    this.tags.set(slot, bug.tags);
    this.custom.set(slot, bug.custom);
    this.setPrivateAttachmentsAt(slot, knownPrivateAttachments(bug));
    this.bits[slot]! |= readsBack(this, slot, bug) ? READS_BACK_BIT : NOT_READ_BACK_BIT;
    if (document.history?.length) {
      const changes = document.history
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
      if (changes.length > 0) this.whenPart('history', () => this.historyStore.append(slot, changes));
    }
    // A new slot is in no posting list: skipping the pass over the whole vocabulary keeps loading
    // many new bugs (an import, a catch-up) linear instead of bugs × vocabulary.
    const replaceWords = document.allWords === true && !added;
    const { words = [], privateWords = [] } = document;
    if (replaceWords || words.length > 0 || privateWords.length > 0)
      this.whenPart('words', () => {
        if (replaceWords) {
          this.wordStore.removeSlot(slot);
          this.privateWordStore.removeSlot(slot);
        }
        for (const word of words) this.wordStore.add(word, slot);
        for (const word of privateWords) this.privateWordStore.add(word, slot);
      });
    this.touch(slot);
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
    this.setPrivateAttachmentsAt(slot, marks);
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

  /**
   * Every per-slot column (SLOT_COLUMNS and `codes`) is at least this long: the shortest of them,
   * kept by ensureCapacity and setColumn, so no column can lag behind the others.
   */
  private capacity = 1024;

  /** Grows every per-slot column to hold at least `size` slots. @internal */
  ensureCapacity(size: number): void {
    if (size <= this.capacity) return;
    // Each column shorter than `size` grows (doubling, grow); the others stay where they are (an
    // adopted snapshot's columns lie in its buffer, with room the snapshot left).
    const columns = this as unknown as Record<SlotColumn, TypedColumn>;
    for (const name of SLOT_COLUMNS) columns[name] = grow(columns[name], size);
    for (const column of CODE_COLUMNS) this.codes[column] = grow(this.codes[column], size);
    this.capacity = this.shortestColumn();
  }

  /**
   * Puts a column read from a snapshot in place (its length is the room the snapshot left), then
   * sets the capacity from the shortest column: the ones not read yet, or derived, grow to it on
   * the next ensureCapacity. @internal
   */
  setColumn(name: SlotColumn | `codes.${CodeColumn}`, values: TypedColumn): void {
    const current = this.column(name);
    if (values.constructor !== current.constructor)
      throw new Error(`search index column ${name} is ${current.constructor.name}, not ${values.constructor.name}`);
    if (name.startsWith('codes.')) this.codes[name.slice('codes.'.length) as CodeColumn] = values as Int32Array;
    else (this as unknown as Record<SlotColumn, TypedColumn>)[name as SlotColumn] = values;
    this.capacity = this.shortestColumn();
  }

  /** A per-slot column by its name in SLOT_COLUMNS, or `codes.<column>`. */
  column(name: SlotColumn | `codes.${CodeColumn}`): TypedColumn {
    if (name.startsWith('codes.')) return this.codes[name.slice('codes.'.length) as CodeColumn];
    return (this as unknown as Record<SlotColumn, TypedColumn>)[name as SlotColumn];
  }

  private shortestColumn(): number {
    let shortest = Number.POSITIVE_INFINITY;
    for (const name of SLOT_COLUMNS) shortest = Math.min(shortest, this.column(name).length);
    for (const column of CODE_COLUMNS) shortest = Math.min(shortest, this.codes[column].length);
    return shortest;
  }
}
