/**
 * Bugzilla stores some comments as a kind plus a number and writes their wording when it shows
 * them: "Created attachment 7\n<summary>", "Comment on attachment 7\n<summary>\n\n...", and the
 * two duplicate notices. Bugzilla 5.0 and 5.2 send only that shown `text`; Harmony/BMO and Tracker
 * also send `raw_text`. Tracker keeps comments the same way (kind, extra data, what the author
 * wrote), so the importer recovers the three from the text, exactly as Bugzilla composed it: the
 * comment then reads the same on both sides.
 */

/** Bugzilla's special comments, as Tracker keeps them. */
export type CommentKind = 'normal' | 'attachment_created' | 'attachment_updated' | 'dupe_of' | 'has_dupe';

interface Recovered {
  kind: CommentKind;
  extraData: number | null;
  rawText: string;
}

const CREATED = /^Created attachment (\d+)\n[^\n]*(?:\n\n([\s\S]*))?$/;
const UPDATED = /^Comment on attachment (\d+)\n[^\n]*\n\n([\s\S]*)$/;
const DUPE_OF = /^(?:([\s\S]*)\n\n)?\*\*\* This bug has been marked as a duplicate of bug (\d+) \*\*\*$/;
const HAS_DUPE = /^(?:([\s\S]*)\n\n)?\*\*\* Bug (\d+) has been marked as a duplicate of this bug\. \*\*\*$/;

export function recoverComment(text: string, attachmentId: number | null): Recovered {
  const onAttachment = (match: RegExpMatchArray | null) =>
    match !== null && (attachmentId === null || Number(match[1]) === attachmentId);
  const created = text.match(CREATED);
  if (onAttachment(created))
    return { kind: 'attachment_created', extraData: Number(created![1]), rawText: created![2] ?? '' };
  const updated = text.match(UPDATED);
  if (onAttachment(updated))
    return { kind: 'attachment_updated', extraData: Number(updated![1]), rawText: updated![2] };
  const dupeOf = text.match(DUPE_OF);
  if (dupeOf) return { kind: 'dupe_of', extraData: Number(dupeOf[2]), rawText: dupeOf[1] ?? '' };
  const hasDupe = text.match(HAS_DUPE);
  if (hasDupe) return { kind: 'has_dupe', extraData: Number(hasDupe[2]), rawText: hasDupe[1] ?? '' };
  return { kind: 'normal', extraData: null, rawText: text };
}
