/** Bugzilla's reply: "(In reply to X from comment #N)" and the text quoted with "> ". */
export function replyText(comment: { creator: string; count: number; text: string }): string {
  const who = comment.creator;
  const head =
    comment.count === 0
      ? `(In reply to ${who} from description)`
      : `(In reply to ${who} from comment #${comment.count})`;
  const quoted = comment.text
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n');
  return `${head}\n${quoted}\n\n`;
}
