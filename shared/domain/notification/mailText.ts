/**
 * Bugzilla's plain-text layout for mail: Text::Wrap's line breaking (lines at most one column
 * short of the width, broken at a blank, which the break consumes), comments wrapped at 80
 * columns except quoted lines, and the fixed columns of the change table. Mail clients show
 * these in a fixed-width font, so the layout is part of what people read.
 */

/**
 * Text::Wrap counts a character with its combining marks as one (`\PM\pM*`), so an accent never
 * stands alone on a line.
 */
const graphemes = (text: string): string[] => text.match(/\P{M}\p{M}*|\p{M}+/gu) ?? [];

const isBlank = (grapheme: string | undefined): boolean => grapheme !== undefined && /^\s/u.test(grapheme);

const TAB_STOP = 8;

/** Text::Tabs::expand: each tab up to the next multiple of eight columns. */
function expandTabs(line: string): string {
  if (!line.includes('\t')) return line;
  let column = 0;
  let expanded = '';
  for (const grapheme of graphemes(line)) {
    if (grapheme === '\t') {
      const width = TAB_STOP - (column % TAB_STOP);
      expanded += ' '.repeat(width);
      column += width;
    } else {
      expanded += grapheme;
      column += 1;
    }
  }
  return expanded;
}

/**
 * Text::Wrap's wrap of one line at `columns`: each piece the longest run of at most
 * `columns - 1` characters that a blank (or the end) follows; a longer word is cut (`wrap`) or
 * left whole (`overflow`).
 */
export function wrapLine(line: string, columns: number, huge: 'wrap' | 'overflow'): string {
  const text = graphemes(expandTabs(line));
  const limit = Math.max(columns - 1, 1);
  let lastWord = text.length - 1;
  while (lastWord >= 0 && isBlank(text[lastWord])) lastWord -= 1;
  const onlyBlanksFrom = (position: number) => position > lastWord;
  let position = 0;
  let wrapped = '';
  let separator = '';
  let remainder = '';
  while (!onlyBlanksFrom(position)) {
    let length = Math.min(limit, text.length - position);
    while (length >= 0 && position + length < text.length && !isBlank(text[position + length])) length -= 1;
    if (length < 0 && huge === 'wrap') {
      length = limit;
      remainder = '\n';
    } else {
      if (length < 0) {
        length = 0;
        while (position + length < text.length && !isBlank(text[position + length])) length += 1;
      }
      remainder = text[position + length] ?? '';
    }
    wrapped += separator + text.slice(position, position + length).join('');
    position += length + (remainder === '\n' || remainder === '' ? 0 : 1);
    separator = '\n';
  }
  return wrapped + remainder + text.slice(position).join('');
}

/** Perl's split: trailing empty fields are dropped. */
const perlLines = (text: string): string[] => {
  const lines = text.split(/\r\n|\r|\n/);
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines;
};

/** Bugzilla's comment width (COMMENT_COLS). */
export const COMMENT_COLUMNS = 80;

/**
 * Bugzilla's wrap_comment: every line wrapped at 80 columns, long words left whole, and lines
 * that quote (start with `>`) left as they are.
 */
export const wrapComment = (text: string, columns = COMMENT_COLUMNS): string =>
  perlLines(text)
    .map((line) => (line.startsWith('>') ? line : wrapLine(line, columns, 'overflow')))
    .join('\n');

/** Bugzilla's wrap_hard, for table cells: long words cut, line breaks in the value kept as breaks. */
export const wrapHard = (text: string, columns: number): string =>
  perlLines(text)
    .filter((line) => line !== '')
    .map((line) => wrapLine(line, columns, 'wrap'))
    .join('\n');

/** Text::Wrap with 80 columns over a whole paragraph, as the request mail's wrap filter does. */
export const wrapParagraph = (text: string, columns = COMMENT_COLUMNS): string =>
  perlLines(text)
    .map((line) => wrapLine(line, columns, 'overflow'))
    .join('\n');

const width = (text: string) => Array.from(text).length;
const padStart = (text: string, size: number) => ' '.repeat(Math.max(size - width(text), 0)) + text;
const padEnd = (text: string, size: number) => text + ' '.repeat(Math.max(size - width(text), 0));

/**
 * Bugzilla's multiline_sprintf: each value wrapped to its column, the columns set side by side
 * line by line (the first right-aligned, the others left-aligned), trailing blanks dropped so
 * they do not turn into quoted-printable noise.
 */
function columns(values: readonly string[], sizes: readonly number[], glue: string): string {
  const cells = values.map((value, index) => perlLines(wrapHard(value, sizes[index]!)));
  const rows = Math.max(...cells.map((lines) => lines.length));
  const lines: string[] = [];
  for (let row = 0; row < rows; row += 1) {
    const line = cells
      .map((lines, index) => {
        const cell = lines[row] ?? '';
        return index === 0 ? padStart(cell, sizes[0]!) : padEnd(cell, sizes[index]!);
      })
      .join(glue);
    lines.push(line.trimEnd());
  }
  return lines.map((line) => `${line}\n`).join('');
}

/** A row of the change table: `%19s|%-28s|%-28s`. */
export const changeRow = (label: string, removed: string, added: string): string =>
  columns([label, removed, added], [19, 28, 28], '|');

/** A row of a new bug's field list: `%19s %-55s`. */
export const fieldRow = (label: string, value: string): string => columns([label, value], [19, 55], ' ');

export const CHANGE_TABLE_HEADING = `           What    |Removed                     |Added\n${'-'.repeat(76)}\n`;

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (value: number) => String(value).padStart(2, '0');

/** An RFC 5322 date in UTC, as Bugzilla writes Date: (`Thu, 02 Jan 2025 03:04:05 +0000`). */
export function mailDate(when: string): string {
  const date = new Date(when);
  if (Number.isNaN(date.getTime())) throw new RangeError(`Not a time: ${when}`);
  return (
    `${DAYS[date.getUTCDay()]}, ${two(date.getUTCDate())} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()} ` +
    `${two(date.getUTCHours())}:${two(date.getUTCMinutes())}:${two(date.getUTCSeconds())} +0000`
  );
}
