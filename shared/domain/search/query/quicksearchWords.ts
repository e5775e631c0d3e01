/**
 * How Bugzilla 5.2's quicksearch cuts text into pieces (Quicksearch.pm reads every level with
 * Perl's Text::ParseWords::parse_line): the whole query into words on whitespace, a word into
 * `|` alternatives, an alternative into field and value on an operator, a value list on commas.
 * Double or single quotes protect a piece from being cut; a backslash protects the next character.
 *
 * An apostrophe is a quote only at the start of a word, right after a colon, or at the end of a
 * word, so `don't` and `O'Brien` stay plain text.
 */

/** Placeholders for apostrophes while the pieces are cut: one that quotes, one that is text. */
const QUOTING_APOSTROPHE = '\u0001';
const TEXT_APOSTROPHE = '\u0000';

function markApostrophes(line: string): string {
  return line
    .replace(/(^|\s|:)'/g, `$1${QUOTING_APOSTROPHE}`)
    .replace(/'($|\s)/g, `${QUOTING_APOSTROPHE}$1`)
    .replace(/\\?'/g, TEXT_APOSTROPHE)
    .replaceAll(QUOTING_APOSTROPHE, "'");
}

const isQuote = (char: string | undefined) => char === '"' || char === "'";

/** The end (exclusive) of the quoted run opening at `start`, or -1 when it is never closed. */
function closingQuote(line: string, start: number): number {
  const quote = line[start];
  for (let at = start + 1; at < line.length; at++) {
    if (line[at] === '\\') at++;
    else if (line[at] === quote) return at + 1;
  }
  return -1;
}

/** Removes the backslashes that protect characters, as parse_line does when quotes are not kept. */
const withoutEscapes = (text: string) => text.replace(/\\([\s\S])/g, '$1');

/**
 * The pieces of `line` between matches of `delimiter` outside quotes. `keep` keeps quotes and
 * backslashes in the pieces (to tell later which parts were quoted); without it they are removed.
 * A piece is undefined where a delimiter ends the line (`prod:` gives `prod` and undefined).
 * Null when the line cannot be read: an unclosed quote, a trailing lone backslash.
 */
export function splitQuicksearch(delimiter: RegExp, keep: boolean, line: string): Array<string | undefined> | null {
  const text = markApostrophes(line);
  const separator = new RegExp(delimiter.source, 'y');
  const pieces: Array<string | undefined> = [];
  let piece: string | undefined;
  let at = 0;
  while (at < text.length) {
    let part: string;
    let separatorLength = 0;
    const closing = isQuote(text[at]) ? closingQuote(text, at) : -1;
    if (closing > 0) {
      const inner = text.slice(at + 1, closing - 1);
      // Perl's parse_line unescapes inside double quotes only.
      part = keep ? text.slice(at, closing) : text[at] === '"' ? withoutEscapes(inner) : inner;
      at = closing;
    } else {
      // Plain text up to the line's end, a delimiter, or a quote that opens a quoted run.
      let end = at;
      for (;;) {
        if (end === text.length) break;
        separator.lastIndex = end;
        const match = separator.exec(text);
        if (match) {
          separatorLength = match[0].length;
          break;
        }
        if (end > at && isQuote(text[end])) break;
        if (text[end] === '\\' && end + 1 < text.length) end += 2;
        else if (text[end] === '\\' || isQuote(text[end])) return null;
        else end++;
      }
      const raw = text.slice(at, end);
      if (raw === '' && separatorLength === 0) return null;
      part = keep ? raw : withoutEscapes(raw);
      at = end + separatorLength;
    }
    piece = (piece ?? '') + part;
    if (separatorLength > 0) {
      pieces.push(piece);
      piece = undefined;
    }
    if (at >= text.length) pieces.push(piece);
  }
  return pieces.map((entry) => entry?.replaceAll(TEXT_APOSTROPHE, "'"));
}

/** The defined pieces, for levels where an empty end piece carries no meaning. */
export const definedPieces = (pieces: Array<string | undefined> | null): string[] =>
  (pieces ?? []).filter((piece): piece is string => piece !== undefined);
