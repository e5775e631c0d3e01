import type { Difference } from './differences.ts';
import type { VerifyResult } from './verifyImport.ts';

/**
 * The verification as text for the import report, bounded whatever the result holds: the first
 * `perBug` differences of each of the first `bugs` bugs, then how many more; values cut to
 * `valueChars` characters.
 */

export interface RenderOptions {
  perBug?: number;
  bugs?: number;
  valueChars?: number;
}

export function renderVerification(result: VerifyResult, options: RenderOptions = {}): string {
  const perBug = options.perBug ?? 10;
  const maxBugs = options.bugs ?? 50;
  const valueChars = options.valueChars ?? 120;
  const { totals } = result;
  const what = { ids: 'the imported bugs', sample: 'a random sample', all: 'every bug id' }[result.mode];
  const lines = [
    `Verification of ${what}: ${result.checked} ids, ${result.compared} bugs compared` +
      (result.absent > 0 ? ` (${result.absent} ids name no bug on either side)` : '') +
      ` in ${result.seconds.toFixed(1)} s.`,
    `Compared ${totals.compared.comments} comments, ${totals.compared.attachments} attachments, ` +
      `${totals.compared.flags} flags and ${totals.compared.historyEntries} history entries.`,
    result.equal
      ? 'No differences: both sides answer the same.'
      : `${totals.differences} differences in ${totals.bugsWithDifferences} bugs (` +
        Object.entries(totals.byKind)
          .map(([kind, count]) => `${kind} ${count}`)
          .join(', ') +
        ').',
  ];
  for (const note of result.notes) lines.push(`Note: ${note}`);
  if (result.unreadable.length > 0) {
    lines.push(`Could not be read (${result.unreadable.length}):`);
    for (const item of result.unreadable.slice(0, maxBugs))
      lines.push(`  ${item.kind} ${item.id} on the ${item.side}: ${item.reason}`);
    if (result.unreadable.length > maxBugs) lines.push(`  … and ${result.unreadable.length - maxBugs} more`);
  }
  for (const bug of result.bugs.slice(0, maxBugs)) {
    lines.push(`Bug ${bug.id}:`);
    for (const difference of bug.differences.slice(0, perBug)) lines.push(`  ${line(difference, valueChars)}`);
    if (bug.differences.length > perBug) lines.push(`  … and ${bug.differences.length - perBug} more differences`);
  }
  if (result.bugs.length > maxBugs) lines.push(`… and ${result.bugs.length - maxBugs} more bugs with differences`);
  return lines.join('\n');
}

function line(difference: Difference, valueChars: number): string {
  const show = (value: unknown) => {
    if (value === null || value === undefined) return '(none)';
    const text = JSON.stringify(value);
    return text.length > valueChars ? `${text.slice(0, valueChars - 1)}…` : text;
  };
  const subject = {
    bug: 'field',
    flag: difference.field.startsWith('attachment ') ? `attachment ${difference.id}` : 'bug',
    comment: `comment ${difference.id}`,
    attachment: `attachment ${difference.id}`,
    history: 'history',
  }[difference.kind];
  const field = difference.kind === 'flag' ? difference.field.replace(/^(bug|attachment) /, '') : difference.field;
  return `${subject} ${field}: source ${show(difference.source)}, target ${show(difference.target)}`;
}
