/**
 * The import's account of itself: counts per kind and per product, what was skipped and why
 * (grouped by reason, with examples, so a reason that hits 10,000 bugs is one line), the bugs the
 * source account could not see, how long each phase took. Rendered as text for the terminal and
 * written as JSON with `--report`.
 */
export interface SkipGroup {
  kind: string;
  reason: string;
  count: number;
  /** The first few things skipped for this reason. */
  examples: string[];
}

export interface PhaseTime {
  name: string;
  seconds: number;
  items: number;
}

export interface ImportReport {
  source: { url: string; kind: string; version: string; account: string | null };
  target: string;
  mode: 'fresh' | 'resume' | 'update';
  dryRun: boolean;
  /** Stopped before the end (Ctrl-C or `stopAfterBatches`): a rerun resumes after `checkpoint`. */
  interrupted: boolean;
  checkpoint: number;
  /** `--since` or the last synchronised source time, for an update. */
  since: string | null;
  counts: Record<string, number>;
  bugsPerProduct: Record<string, number>;
  skipped: SkipGroup[];
  /**
   * Values stored otherwise than the source has them, so that they pass the API's rules (issue
   * 41): file names reduced to a base name, line breaks out of one-line fields, URLs that are not
   * http(s), invalid or taken aliases, content types that are not MIME types. Grouped like `skipped`.
   */
  cleaned: SkipGroup[];
  /** Imported users: none has a password in Tracker (REST never gives them). */
  usersWithoutPassword: number;
  /**
   * Bugs the account could read but whose restricting groups could not be imported (a key
   * without creategroups lists no groups): left out rather than made readable to more people.
   */
  restrictedLeftOut: { count: number; ranges: string[]; groups: string[] };
  /**
   * Products whose group controls the source does not expose (5.0, 5.2): what was inferred from
   * their bugs, and the call that sets what the operator decides.
   */
  productControls: Array<{ product: string; inferred: string[]; call: string }>;
  /** Why the run stopped early, when it failed (the source gone for too long, ...): a rerun resumes. */
  error?: string;
  /**
   * Imported bugs changed on the target since the import wrote them, which this update wrote
   * again all the same (`overwriteTargetEdits`; without it the update is refused), as id ranges.
   */
  overwrittenTargetEdits: string[];
  /** Bugs an update brought because their comment or personal tags changed (not their last_change_time), as id ranges. */
  tagChanged: string[];
  /** Bugs that exist on the source but the account may not see (fault 102), as id ranges. */
  hiddenBugs: { count: number; ranges: string[]; groups: string[] | null };
  /** From the probe: what an import with this key lacks, and what the source never exposes. */
  missing: string[];
  notExposed: string[];
  warnings: string[];
  phases: PhaseTime[];
  /** What this run wrote to the target: table items (puts and deletes) and attachment body bytes. */
  written: { items: number; attachmentBytes: number };
  /** A new API key for the source account, when it had no way in on the target (text report only). */
  newApiKey?: { login: string; key: string };
}

const EXAMPLES = 10;

export class ReportBuilder {
  readonly counts: Record<string, number> = {};
  readonly bugsPerProduct: Record<string, number> = {};
  private readonly skips = new Map<string, SkipGroup>();
  private readonly cleans = new Map<string, SkipGroup>();
  readonly hiddenBugIds: number[] = [];
  readonly restrictedIds: number[] = [];
  readonly restrictedGroups = new Set<string>();
  readonly warnings: string[] = [];
  readonly phases: PhaseTime[] = [];

  count(kind: string, by = 1): void {
    this.counts[kind] = (this.counts[kind] ?? 0) + by;
  }

  skip(kind: string, what: string, reason: string): void {
    add(this.skips, kind, what, reason);
  }

  /** A value stored otherwise than the source has it; `note` says how, `what` names the bug and item. */
  clean(kind: string, what: string, note: string): void {
    // The note quotes the value: grouped without the quotes, the value goes with the example.
    const reason = note.replace(/"(?:[^"\\]|\\.)*"|'[^']*'/g, '…');
    add(this.cleans, kind, `${what}: ${note}`, reason);
  }

  get skipped(): SkipGroup[] {
    return [...this.skips.values()];
  }

  get cleaned(): SkipGroup[] {
    return [...this.cleans.values()];
  }

  /** Per product (lower-cased name): the groups every bug imported in it is in, and those any is in. */
  readonly productGroups = new Map<string, { everyBug: Set<string>; anyGroup: Set<string> }>();

  bugGroups(product: string, groups: readonly string[]): void {
    const key = product.toLowerCase();
    const seen = this.productGroups.get(key);
    if (!seen) {
      this.productGroups.set(key, { everyBug: new Set(groups), anyGroup: new Set(groups) });
      return;
    }
    for (const group of seen.everyBug) if (!groups.includes(group)) seen.everyBug.delete(group);
    for (const group of groups) seen.anyGroup.add(group);
  }

  leaveOutRestricted(bugId: number, groups: readonly string[]): void {
    this.restrictedIds.push(bugId);
    for (const group of groups) this.restrictedGroups.add(group);
  }

  bugInProduct(product: string): void {
    this.bugsPerProduct[product] = (this.bugsPerProduct[product] ?? 0) + 1;
  }
}

function add(groups: Map<string, SkipGroup>, kind: string, what: string, reason: string): void {
  const key = `${kind}\u0000${reason}`;
  let group = groups.get(key);
  if (!group) {
    group = { kind, reason, count: 0, examples: [] };
    groups.set(key, group);
  }
  group.count++;
  if (group.examples.length < EXAMPLES) group.examples.push(what);
}

/** Consecutive ids as ranges: [1,2,3,7] → ["1-3", "7"]. */
export function idRanges(ids: readonly number[]): string[] {
  const sorted = [...new Set(ids)].sort((a, b) => a - b);
  const ranges: string[] = [];
  for (let index = 0; index < sorted.length; ) {
    let end = index;
    while (end + 1 < sorted.length && sorted[end + 1] === sorted[end] + 1) end++;
    ranges.push(end === index ? String(sorted[index]) : `${sorted[index]}-${sorted[end]}`);
    index = end + 1;
  }
  return ranges;
}

/** The ids of ranges as idRanges writes them: ["1-3", "7"] → [1,2,3,7]. */
export function expandRanges(ranges: readonly string[]): number[] {
  return ranges.flatMap((range) => {
    const [from, to = from] = range.split('-').map(Number);
    return Array.from({ length: to - from + 1 }, (_, offset) => from + offset);
  });
}

/** The report as an operator reads it at the end of a run. */
export function renderReport(report: ImportReport): string {
  const lines: string[] = [];
  const what = report.dryRun ? 'Dry run (nothing written)' : report.interrupted ? 'Import interrupted' : 'Import done';
  lines.push(`${what}: ${report.source.url} (${report.source.kind} ${report.source.version}) → ${report.target}`);
  lines.push(`Mode: ${report.mode}${report.since ? ` (changes since ${report.since})` : ''}`);
  if (report.error) lines.push(`Stopped by an error: ${report.error}`);
  if (report.interrupted) lines.push(`Checkpoint: bug ${report.checkpoint}; run the same command again to resume.`);
  if (report.overwrittenTargetEdits.length > 0)
    lines.push(
      '',
      `OVERWRITTEN: bugs changed on the target since the import wrote them were written again from the source (--overwrite-target-edits): ${report.overwrittenTargetEdits.join(', ')}`,
    );
  if (report.restrictedLeftOut.count > 0)
    lines.push(
      '',
      `NOT IMPORTED: ${report.restrictedLeftOut.count} bugs restricted to groups that could not be imported (${report.restrictedLeftOut.groups.join(', ')}): ${report.restrictedLeftOut.ranges.join(', ')}`,
      '  Imported without their groups they would have been readable by everybody. Import with a key of an administrator of the source (or one in creategroups) to bring them.',
    );
  lines.push('', 'Counts:');
  for (const [kind, count] of Object.entries(report.counts)) lines.push(`  ${kind}: ${count}`);
  const products = Object.entries(report.bugsPerProduct);
  if (products.length > 0) {
    lines.push('', 'Bugs per product:');
    for (const [product, count] of products.sort((a, b) => b[1] - a[1])) lines.push(`  ${product}: ${count}`);
  }
  if (report.usersWithoutPassword > 0)
    lines.push(
      '',
      `${report.usersWithoutPassword} imported users have no password: they cannot log in with one until they set it. Invite them all by mail with a set-password link: npm run invite -- --url <the installation> --api-key <an administrator's key> (or POST /rest/account/invitations; set urlbase and mail_delivery_method first). An administrator can also set one (PUT /rest/user/<id> with password).`,
    );
  if (report.newApiKey)
    lines.push(
      '',
      `New API key for ${report.newApiKey.login} on the target (shown once, not in the JSON report): ${report.newApiKey.key}`,
    );
  if (report.tagChanged.length > 0)
    lines.push(
      '',
      `Brought again because their comment or personal tags changed (the source did not move their last_change_time): ${report.tagChanged.join(', ')}`,
    );
  if (report.hiddenBugs.count > 0) {
    lines.push(
      '',
      `${report.hiddenBugs.count} bugs exist on the source but the account may not see them: ${report.hiddenBugs.ranges.join(', ')}`,
      report.hiddenBugs.groups?.length
        ? `  Add the account to ${report.hiddenBugs.groups.join(', ')} on the source and run again to import them.`
        : '  Add the account to the groups that restrict them on the source and run again to import them.',
    );
  }
  if (report.productControls.length > 0) {
    lines.push(
      '',
      'Product group controls (the source does not expose them; set what each product needs on the target):',
    );
    for (const entry of report.productControls)
      lines.push(
        `  ${entry.product}: ${entry.inferred.length > 0 ? `every bug is in ${entry.inferred.join(', ')}, so ${entry.inferred.length > 1 ? 'those groups were' : 'that group was'} made MANDATORY for members and others` : 'nothing could be inferred from its bugs'}`,
        `    ${entry.call}`,
      );
  }
  if (report.skipped.length > 0) {
    lines.push('', 'Skipped:');
    for (const group of report.skipped)
      lines.push(
        `  ${group.kind} (${group.count}): ${group.reason}${group.examples.length > 0 ? ` — e.g. ${group.examples.join(', ')}` : ''}`,
      );
  }
  if (report.cleaned.length > 0) {
    lines.push('', 'Cleaned (stored as the API would have taken them):');
    for (const group of report.cleaned)
      lines.push(
        `  ${group.kind} (${group.count}): ${group.reason}`,
        ...group.examples.map((example) => `    - ${example}`),
      );
  }
  if (report.missing.length > 0) {
    lines.push('', 'Missing with this key:');
    for (const line of report.missing) lines.push(`  - ${line}`);
  }
  if (report.notExposed.length > 0) {
    lines.push('', 'Never exposed by the source over REST (not imported):');
    for (const line of report.notExposed) lines.push(`  - ${line}`);
  }
  if (report.warnings.length > 0) {
    lines.push('', 'Warnings:');
    for (const line of report.warnings) lines.push(`  - ${line}`);
  }
  if (!report.dryRun)
    lines.push(
      '',
      `Written: ${report.written.items} items, ${report.written.attachmentBytes} bytes of attachment bodies.`,
    );
  lines.push('', 'Phases:');
  for (const phase of report.phases) lines.push(`  ${phase.name}: ${phase.items} in ${phase.seconds.toFixed(1)} s`);
  return `${lines.join('\n')}\n`;
}

/** The JSON report: everything but the new API key, which a report file must not keep. */
export function reportJson(report: ImportReport): string {
  const { newApiKey, ...rest } = report;
  return `${JSON.stringify({ ...rest, newApiKey: newApiKey ? { login: newApiKey.login, key: '(shown on the terminal only)' } : undefined }, null, 2)}\n`;
}
