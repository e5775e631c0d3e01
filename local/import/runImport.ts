import * as z from 'zod';
import { DEFAULT_PARAMETERS } from '../../shared/domain/instance/parameters.ts';
import { toBugzillaDateTime } from '../../shared/domain/time.ts';
import { loadImportMarks } from '../../shared/storage/bug/bugImportStore.ts';
import { saveImportState } from '../../shared/storage/instance/importStateStore.ts';
import { ensureAccountKey } from './destination/accountKey.ts';
import { bugBundles } from './destination/bugRanges.ts';
import { historyFieldNames } from './destination/historyFields.ts';
import { IdMaps } from './destination/idMaps.ts';
import { ImportIndex } from './destination/importIndex.ts';
import { decideMode, type GuardedImportState, type ModeDecision, targetCounters } from './destination/importMode.ts';
import { inferProductControls } from './destination/productControls.ts';
import { seenIds } from './destination/sourceIds.ts';
import { pointStorageAt, type StorageTarget } from './destination/storageTarget.ts';
import { TargetWriter } from './destination/targetWriter.ts';
import { writeAccounts } from './destination/writeAccounts.ts';
import { type BatchIds, writeBugBatch } from './destination/writeBugs.ts';
import { type CatalogueContext, writeClassifications, writeProducts } from './destination/writeCatalogue.ts';
import { writeCustomFields, writeFlagTypes, writeKeywords } from './destination/writeDefinitions.ts';
import { writeParameters } from './destination/writeParameters.ts';
import { writeFieldValues } from './destination/writeValues.ts';
import { ImportRefusal } from './importErrors.ts';
import { type Progress, silentProgress } from './progress.ts';
import { readSource, type SourceData } from './readSource.ts';
import { expandRanges, type ImportReport, idRanges, ReportBuilder } from './report.ts';
import {
  type BugzillaClient,
  createBugzillaClient,
  ImportStopped,
  probeSource,
  type SourceProbe,
  SourceProbeError,
} from './source/index.ts';

/**
 * The programmatic entry of the importer (the command line is cli.ts): probes the source, checks
 * the target, then runs the phases in the order their ids are needed — accounts (groups and
 * users), catalogue (legal values, classifications, products, keywords, flag types, custom
 * fields, parameters), bugs batch by batch with a checkpoint after each, and a finish (the way
 * in, the search snapshot, the state marked finished). Every phase is repeatable, so a rerun
 * after any stop converges on the same target.
 */
export interface ImportOptions {
  /** The source's REST root (`https://bugzilla.example.org/rest`). */
  from: string;
  /** The URL the target's import was made from, when that source now answers at `from`. */
  sameSourceAs?: string;
  apiKey: string;
  /** Requests in flight to the source (default 8). */
  connections?: number;
  /** Only bugs changed at or after this time (Bugzilla's `YYYY-MM-DDTHH:MM:SSZ`). */
  since?: string;
  dryRun?: boolean;
  /** Go on with a key that is not an administrator's (the report lists what is missing). */
  allowPartial?: boolean;
  /**
   * Where to write; the storage modules are pointed at it (storageTarget.ts). A function is
   * called only once the source is accepted, so a refused source leaves no new installation.
   */
  target: StorageTarget | (() => Promise<StorageTarget>);
  /** Called once the target is accepted, before anything is written to it (e.g. bootstrapping it). */
  prepareTarget?: () => Promise<void>;
  /** How long a request to the source is retried while the source is down or failing (default 10 minutes). */
  retryForMs?: number;
  /** Bugs per batch (default 100). */
  batchSize?: number;
  /**
   * Write again, all the same, imported bugs that were changed on the target since the import
   * wrote them (an update is refused otherwise); the report lists them.
   */
  overwriteTargetEdits?: boolean;
  /** At most this many ids a 5.x search did not list are asked about, to report hidden bugs by id (default 5,000). */
  probeLimit?: number;
  /** Stop after this many bug batches, as Ctrl-C does (tests of resuming). */
  stopAfterBatches?: number;
  /**
   * Aborted (Ctrl-C): requests in flight to the source are abandoned at once, in any phase; in
   * the bugs the batches already written stay, with their checkpoint, and the report says the
   * run was interrupted; before the bugs an ImportStopped is thrown.
   */
  signal?: AbortSignal;
  /** The largest answer read from the source (default 128 MiB). */
  maxAnswerBytes?: number;
  /** The most users read from the source (default 1,000,000). */
  maxUsers?: number;
  progress?: Progress;
  /** For tests: a client of the caller's (fetch stubs, retries). */
  client?: (options: { baseUrl: string; apiKey: string; connections: number }) => BugzillaClient;
}

export async function runImport(options: ImportOptions): Promise<ImportReport> {
  const progress = options.progress ?? silentProgress;
  const dryRun = options.dryRun ?? false;
  const connections = options.connections ?? 8;
  const makeClient =
    options.client ??
    ((settings: { baseUrl: string; apiKey: string; connections: number; keyTransport?: SourceProbe['keyTransport'] }) =>
      createBugzillaClient({ ...settings, signal: options.signal, maxAnswerBytes: options.maxAnswerBytes }));
  const report = new ReportBuilder();

  // 1. The source: what it is, whether the key works and what it may see. Nothing is written yet.
  let probe: SourceProbe;
  try {
    probe = await probeSource(makeClient({ baseUrl: options.from, apiKey: options.apiKey, connections }));
  } catch (error) {
    if (error instanceof SourceProbeError) throw new ImportRefusal('source', error.message);
    throw error;
  }
  if (!probe.capabilities.admin && !options.allowPartial)
    throw new ImportRefusal(
      'not-admin',
      `The key's account (${probe.account?.login ?? 'unknown'}) is not an administrator of the source, so the import would lack:\n${probe.missing.map((line) => `  - ${line}`).join('\n')}\nUse an administrator's key, or run again with --allow-partial to import what this account can see.`,
    );
  const source = options.client
    ? makeClient({ baseUrl: options.from, apiKey: options.apiKey, connections })
    : createBugzillaClient({
        baseUrl: options.from,
        apiKey: options.apiKey,
        connections,
        keyTransport: probe.keyTransport,
        signal: options.signal,
        maxAnswerBytes: options.maxAnswerBytes,
        retryForMs: options.retryForMs ?? 600_000,
        onRetry: (event) =>
          progress.log(
            `The source did not answer ${event.path} (${event.reason}); trying again in ${Math.ceil(event.delayMs / 1000)} s (attempt ${event.attempt + 1}; giving up after ${Math.round((options.retryForMs ?? 600_000) / 60_000)} min of failures).`,
          ),
      });
  report.warnings.push(...probe.warnings);

  // 2. The target: fresh, a resume or an update of the same source; anything else is refused.
  const target = typeof options.target === 'function' ? await options.target() : options.target;
  pointStorageAt(target);
  let decision: ModeDecision;
  try {
    decision = await decideMode(options.from, options.since, options.sameSourceAs);
  } catch (error) {
    if (!dryRun || error instanceof ImportRefusal) throw error;
    decision = { mode: 'fresh', state: null, since: options.since ?? null };
    report.warnings.push(
      `The target could not be read (${(error as Error).message}): the dry run reads as for a new one.`,
    );
  }
  if (!dryRun) await options.prepareTarget?.();
  const writer = new TargetWriter(dryRun);
  const timed = async <T>(name: string, run: () => Promise<T>, items: () => number): Promise<T> => {
    const started = performance.now();
    const result = await run();
    report.phases.push({ name, seconds: (performance.now() - started) / 1000, items: items() });
    return result;
  };

  // 3. Everything but the bugs is read first: the writers need ids from all of it.
  const sourceTime = await readSourceTime(source);
  const data = await timed(
    'read',
    () => readSource(source, probe, progress, { maxUsers: options.maxUsers }),
    () => 0,
  );
  report.phases[report.phases.length - 1].items = data.users.length + data.products.length + data.groups.length;
  const accountId = probe.account?.id ?? Math.min(...data.users.map((user) => user.id), 1);
  const previous = decision.state;
  const state: GuardedImportState = {
    sourceUrl: options.from,
    sourceKind: probe.kind,
    phasesDone: [],
    checkpoint: decision.mode === 'resume' ? (previous?.checkpoint ?? 0) : 0,
    indexedThrough: decision.mode === 'resume' ? (previous?.indexedThrough ?? 0) : 0,
    lastBugId: previous?.lastBugId ?? 0,
    startedAt: decision.mode === 'resume' && previous ? previous.startedAt : new Date().toISOString(),
    finishedAt: null,
    sourceTime: decision.mode === 'resume' && previous ? previous.sourceTime : sourceTime,
    syncedThrough: previous?.syncedThrough ?? null,
    taggedBugs: decision.mode === 'fresh' ? [] : (previous?.taggedBugs ?? []),
    marksEdits: decision.mode === 'fresh' ? true : (previous?.marksEdits ?? false),
  };
  const tagged = new Set(expandRanges(state.taggedBugs ?? []));

  // Which bugs this run writes. An update first makes sure it overwrites nothing changed on the
  // target since the import wrote it: such a bug is named and the run refused before any write.
  const plan = await bugBundles(source, decision, state, options.batchSize ?? 100, {
    permissive: probe.kind === 'tracker' || probe.kind === 'harmony',
    tags:
      decision.mode === 'update' && accountIdKnown(probe)
        ? { known: [...tagged], accountId: probe.account!.id }
        : undefined,
    probeLimit: options.probeLimit,
  });
  report.warnings.push(...plan.warnings);
  let overwritten: number[] = [];
  if (decision.mode === 'update' && plan.ids && plan.ids.length > 0) {
    const edited = await editedOnTarget(plan.ids, state.marksEdits ?? false);
    if (edited.length > 0 && !options.overwriteTargetEdits && !dryRun)
      throw new ImportRefusal(
        'target-edited',
        `Since the import wrote them, ${edited.length} imported bugs were changed on the target: ${idRanges(edited).join(', ')}. They changed on the source too, so this update would overwrite what was done on the target. Keep the target read-only until the switch; to take the source's version all the same, run again with --overwrite-target-edits (the report lists them).`,
      );
    if (edited.length > 0 && dryRun && !options.overwriteTargetEdits)
      report.warnings.push(
        `The update would be refused: imported bugs ${idRanges(edited).join(', ')} were changed on the target since the import wrote them (--overwrite-target-edits writes them again).`,
      );
    else overwritten = edited;
  }
  // The target's id counters are recorded once the import's own writes are done with (after the
  // catalogue, after each batch): a later run that finds them higher knows others wrote there.
  let recordCounters = false;
  const save = async () => {
    if (dryRun) return;
    state.counters = recordCounters ? await targetCounters() : undefined;
    await saveImportState(state);
  };
  await save();

  const ids = new IdMaps(data.parameters?.default_bug_type || DEFAULT_PARAMETERS.default_bug_type);
  const usersWithoutPassword = await timed(
    'accounts',
    async () => {
      const phase = progress.phase('accounts', data.groups.length + data.users.length, 'groups and users');
      const result = await writeAccounts(data.groups, data.users, {
        ids,
        writer,
        report,
        now: new Date().toISOString(),
      });
      phase.tick(data.groups.length + data.users.length);
      phase.done();
      return result.usersWithoutPassword;
    },
    () => data.groups.length + data.users.length,
  );
  state.phasesDone.push('accounts');

  const firstRun = decision.mode === 'fresh' || (decision.mode === 'resume' && state.checkpoint === 0);
  const catalogue: CatalogueContext = { ids, writer, report, firstRun, accountId };
  await timed(
    'catalogue',
    async () => {
      const phase = progress.phase('catalogue', 7, 'parts');
      await writeFieldValues(data.fields, { writer, report });
      phase.tick();
      const classifications = await writeClassifications(data.classifications, catalogue);
      phase.tick();
      await writeProducts(data.products, classifications, catalogue);
      phase.tick();
      await writeKeywords(data.keywords, catalogue);
      phase.tick();
      await writeFlagTypes(data.flagTypes, data.products, catalogue);
      phase.tick();
      await writeCustomFields(data.fields, catalogue);
      phase.tick();
      await writeParameters(data.parameters, { writer, report, accountId });
      phase.tick();
      await writer.moveStamp({ catalog: true, users: false });
      phase.done();
    },
    () => data.products.length,
  );
  state.phasesDone.push('catalogue');
  recordCounters = true;
  await save();

  // 4. Bugs, batch by batch, each batch a checkpoint.
  const index = dryRun ? null : await ImportIndex.load();
  let interrupted = false;
  let failure: string | undefined;
  const bugsStarted = performance.now();
  let batches = 0;
  try {
    if (index && state.indexedThrough < state.checkpoint) {
      const missed = Array.from(
        { length: state.checkpoint - state.indexedThrough },
        (_, offset) => state.indexedThrough + 1 + offset,
      );
      await index.readBack(missed);
    }
    state.lastBugId = plan.lastBugId;
    const phase = progress.phase('bugs', plan.total, 'bug ids');
    const context = {
      ids,
      writer,
      report,
      index,
      accountId,
      historyField: historyFieldNames(probe.kind),
      replaceExisting: decision.mode !== 'fresh',
      changeLog: decision.mode === 'update',
      deriveDuplicates: probe.kind === 'bugzilla-5.0' || probe.kind === 'bugzilla-5.2',
      seen: seenIds(),
      aliases: new Map<string, number>(),
    };
    const highest: BatchIds = { bug: 0, comment: 0, attachment: 0, flag: 0 };
    for await (const { bundle, ids: read } of plan.bundles) {
      const written = await writeBugBatch(bundle, context);
      // The four counters are independent items: one round trip instead of four per batch.
      const kinds = ['bug', 'comment', 'attachment', 'flag'] as const;
      for (const kind of kinds) highest[kind] = Math.max(highest[kind], written[kind]);
      for (const id of written.tagged) tagged.add(id);
      for (const id of written.untagged) tagged.delete(id);
      state.taggedBugs = idRanges([...tagged]);
      await Promise.all(kinds.map((kind) => writer.advance(kind, written[kind])));
      if (plan.byRange) state.checkpoint = Math.max(state.checkpoint, bundle.range.to);
      await save();
      batches++;
      phase.tick(read);
      if (options.signal?.aborted || (options.stopAfterBatches !== undefined && batches >= options.stopAfterBatches)) {
        interrupted = true;
        break;
      }
    }
    phase.done();
    if (!interrupted && plan.unlisted) {
      // 5.x's search leaves out the bugs the account may not see: their ids are asked one by one.
      const unlisted = await plan.unlisted();
      for (const fault of unlisted.faults) {
        if (fault.code === 102) report.hiddenBugIds.push(fault.id);
        else report.skip('bug', String(fault.id), `the source refused it: ${fault.message} (${fault.code})`);
      }
      if (unlisted.unprobed)
        report.warnings.push(
          `Ids ${unlisted.unprobed.from}-${unlisted.unprobed.to} were not in the source's search and were not asked about one by one (more than ${options.probeLimit ?? 5000} such ids): bugs the account may not see among them are not listed below.`,
        );
    }
  } catch (error) {
    // The source gone for longer than the retries wait, or an answer that cannot be read: every
    // committed batch is kept, and the report says where a rerun resumes.
    // Ctrl-C while a batch was being read is an interruption, not a failure.
    failure = error instanceof ImportStopped || options.signal?.aborted ? undefined : describeFailure(error);
    interrupted = true;
  } finally {
    report.phases.push({
      name: 'bugs',
      seconds: (performance.now() - bugsStarted) / 1000,
      items: report.counts.bugs ?? 0,
    });
    // However the phase ended, the index holds what was written: the snapshot makes it searchable.
    if (index && !dryRun) {
      await timed(
        'search index',
        async () => {
          await index.write();
          state.indexedThrough = state.checkpoint;
          await save();
        },
        () => index.size,
      );
    }
  }

  // 5. Finish: a way in for the operator, and the state that lets the next run update.
  let newApiKey: ImportReport['newApiKey'];
  let productControls: ImportReport['productControls'] = [];
  if (!interrupted) {
    productControls = await timed(
      'group controls',
      () => inferProductControls(data.products, { ids, writer, report }),
      () => data.products.length,
    );
    state.phasesDone.push('bugs');
    if (!dryRun) {
      await timed(
        'finish',
        async () => {
          newApiKey = (probe.account && (await ensureAccountKey(probe.account.id))) || undefined;
          state.phasesDone.push('finish');
          state.finishedAt = new Date().toISOString();
          state.syncedThrough = state.sourceTime;
          state.checkpoint = Math.max(state.checkpoint, state.lastBugId);
          state.indexedThrough = state.checkpoint;
          await save();
        },
        () => 1,
      );
    }
  }
  return {
    source: { url: options.from, kind: probe.kind, version: probe.version, account: probe.account?.login ?? null },
    target: target.description ?? `table ${target.table}`,
    mode: decision.mode,
    dryRun,
    interrupted,
    checkpoint: state.checkpoint,
    since: decision.since,
    counts: report.counts,
    bugsPerProduct: report.bugsPerProduct,
    skipped: report.skipped,
    cleaned: report.cleaned,
    usersWithoutPassword,
    restrictedLeftOut: {
      count: new Set(report.restrictedIds).size,
      ranges: idRanges(report.restrictedIds),
      groups: [...report.restrictedGroups].sort(),
    },
    productControls,
    error: failure,
    overwrittenTargetEdits: idRanges(overwritten),
    tagChanged: idRanges(plan.tagChanged ?? []),
    hiddenBugs: {
      count: new Set(report.hiddenBugIds).size,
      ranges: idRanges(report.hiddenBugIds),
      groups: probe.hiddenBugGroups,
    },
    missing: probe.missing,
    notExposed: probe.notExposed,
    warnings: report.warnings,
    phases: report.phases,
    written: { items: writer.items, attachmentBytes: writer.bodyBytes },
    newApiKey,
  };
}

const accountIdKnown = (probe: SourceProbe) => probe.account !== null;

/**
 * Imported bugs among `ids` changed on the target since the import wrote them: their item lacks
 * the import's mark or holds another revision (bugImportStore.ts). Unmarked bugs count only
 * when the import marked every bug it wrote (`marked`).
 */
async function editedOnTarget(ids: readonly number[], marked: boolean): Promise<number[]> {
  const marks = await loadImportMarks(ids);
  return [...marks]
    .filter(([, mark]) => (mark.importRev === null ? marked : mark.importRev !== mark.rev))
    .map(([id]) => id)
    .sort((a, b) => a - b);
}

/** One line for the report: what failed, without a stack (the source's answers are input, not our bugs). */
function describeFailure(error: unknown): string {
  if (error instanceof z.ZodError)
    return `the source answered something the importer cannot read: ${error.issues
      .slice(0, 3)
      .map((issue) => `${issue.path.join('.')}: ${issue.message}`)
      .join('; ')}`;
  return error instanceof Error ? error.message : String(error);
}

/** The source's clock (its database's), so an update asks for changes in the source's own time. */
async function readSourceTime(source: BugzillaClient): Promise<string> {
  try {
    const answer = await source.get<{ db_time?: string; web_time?: string }>('/time');
    const time = answer.db_time ?? answer.web_time;
    if (time) return toBugzillaDateTime(new Date(time));
  } catch {
    // Older sources without /time: this machine's clock, a minute early to be safe.
  }
  return toBugzillaDateTime(new Date(Date.now() - 60_000));
}

export type { SourceData };
