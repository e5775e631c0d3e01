import { randomUUID } from 'node:crypto';

/**
 * JSON text serialised earlier, placed in a response as it is: a search page is mostly bugs
 * rendered for an earlier request (renderedBugs.ts), and parsing them back only to serialise them
 * again would cost what keeping them saves.
 *
 * JSON.stringify cannot emit raw text before Node 22's JSON.rawJSON, so a RawJson serialises as a
 * marker string that stringifyJson replaces afterwards. The marker holds a random UUID drawn at
 * start-up and a NUL character, so text from a request cannot forge one.
 */
const MARKER = `\u0000raw-json-${randomUUID()}\u0000`;
const QUOTED_MARKER = JSON.stringify(MARKER);

/** The texts of the RawJson values met by the stringifyJson call in progress, in output order. */
let collected: string[] | null = null;

export class RawJson {
  constructor(readonly text: string) {}

  toJSON(): unknown {
    // Outside stringifyJson (a test's JSON.stringify, a log line) the value is parsed back: slower, never wrong.
    if (collected === null) return JSON.parse(this.text);
    collected.push(this.text);
    return MARKER;
  }
}

/** JSON.stringify that writes the text of each RawJson in place. */
export function stringifyJson(value: unknown): string {
  let text = '';
  for (const piece of jsonPieces(value)) text += piece;
  return text;
}

/**
 * The JSON text of `value` as pieces in order: the frame JSON.stringify wrote and, between its
 * parts, each RawJson's text. A large page is a thousand pieces; whoever hashes it (the ETag) can
 * read them as they are instead of flattening one string of megabytes first.
 */
export function jsonPieces(value: unknown): string[] {
  const outer = collected;
  collected = [];
  try {
    const text = JSON.stringify(value);
    const raw = collected;
    if (raw.length === 0) return [text];
    const parts = text.split(QUOTED_MARKER);
    const pieces = [parts[0]!];
    for (let index = 0; index < raw.length; index++) pieces.push(raw[index]!, parts[index + 1]!);
    return pieces;
  } finally {
    collected = outer;
  }
}
