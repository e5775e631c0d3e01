import { notWellFormed, shown } from './xmlRpcFaults.ts';

/**
 * XML character data, both ways. The parser is told to expand no entity at all (so no
 * declaration, however it got there, could), and references are resolved here: XML's five
 * predefined entities and character references, which every XML-RPC client uses (`&lt;`, `&#13;`).
 * Any other entity name is undefined, since Tracker reads no document type: not well-formed.
 */
const PREDEFINED: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
const REFERENCE = /&([^;&<\s]{0,32});|&/g;

/** Whether a code point is a character XML 1.0 allows (production 2.2). */
function isXmlCharacter(point: number): boolean {
  return (
    point === 0x9 ||
    point === 0xa ||
    point === 0xd ||
    (point >= 0x20 && point <= 0xd7ff) ||
    (point >= 0xe000 && point <= 0xfffd) ||
    (point >= 0x10000 && point <= 0x10ffff)
  );
}

export function resolveReferences(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(REFERENCE, (reference: string, name: string | undefined) => {
    if (name === undefined) throw notWellFormed("an '&' starts no reference (write '&amp;' for the character).");
    if (Object.hasOwn(PREDEFINED, name)) return PREDEFINED[name]!;
    const numeric = /^#(?:x([0-9A-Fa-f]+)|([0-9]+))$/.exec(name);
    if (!numeric) throw notWellFormed(`the entity '${shown(reference)}' is not defined.`);
    const point = numeric[1] !== undefined ? Number.parseInt(numeric[1], 16) : Number(numeric[2]);
    if (!isXmlCharacter(point)) throw notWellFormed(`'${reference}' refers to a character XML does not allow.`);
    return String.fromCodePoint(point);
  });
}

/**
 * Characters no XML 1.0 document can carry, not even as a reference: C0 controls but tab and line
 * breaks, unpaired surrogates, U+FFFE and U+FFFF. Bugzilla's xml_quote (Bugzilla/Util.pm) removes
 * them from the XML it writes, and so does Tracker: a response with one would be refused whole by
 * the client's parser (Python's xmlrpc.client among them).
 */
const NOT_XML_CHARACTERS = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
const TO_ESCAPE = /[&<>\r]/g;
const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '\r': '&#13;' };

/**
 * Text as XML character data. A carriage return is written as a reference, since a parser turns a
 * literal one into a line feed (XML 1.0, 2.11) and the text would not come back as it was.
 */
export function escapeXmlText(text: string): string {
  return text.replace(NOT_XML_CHARACTERS, '').replace(TO_ESCAPE, (character) => ESCAPES[character]!);
}
