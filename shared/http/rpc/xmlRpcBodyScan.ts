import { MAX_BODY_VALUES, MAX_DEPTH } from '../../domain/inputLimits.ts';
import { errors } from '../../errors.ts';
import { faultOf, invalidXmlRpc, notWellFormed, unsupportedEncoding } from './xmlRpcFaults.ts';

/**
 * The largest XML-RPC request read, in UTF-8 bytes: a deployed function takes at most 6 MB
 * (6,291,456 bytes, Lambda's synchronous payload), so no JSON body larger than this reaches
 * Tracker either. An attachment of the largest size Tracker accepts (LAMBDA_ATTACHMENT_LIMIT_KB,
 * 4,400 KB) fits: its base64 with line breaks every 76 characters, as Python sends it, is
 * about 6,090,000 bytes.
 */
export const MAX_XML_RPC_BODY_BYTES = 6_291_456;

/**
 * How deep elements may nest: methodCall, params, param and value hold the call's struct; each
 * level of values below it takes three elements (struct, member, value or array, data, value),
 * and the innermost value a type element. The struct itself and MAX_DEPTH levels below it are
 * what a JSON body may have (checkJsonTextLimits).
 */
export const MAX_ELEMENT_DEPTH = 5 + 3 * MAX_DEPTH + 3;

/** Each value takes at most four elements (member, name, value and its type), the call four more. */
const MAX_ELEMENTS = 4 * MAX_BODY_VALUES + 4;

/**
 * Attributes in the whole body. XML-RPC has none (a client may add a namespace declaration or
 * two); a parser checks each against the others of its element, so hundreds of thousands of them
 * (a 6 MB body holds 620,000) cost seconds of work before the call is even read.
 */
export const MAX_XML_RPC_ATTRIBUTES = 64;

/**
 * Characters XML 1.0 does not allow anywhere, even as references (production 2.2): C0 controls
 * but tab and line breaks, unpaired surrogates, U+FFFE and U+FFFF.
 */
const NOT_XML_CHARACTER = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

const XML_DECLARATION_ENCODING = /^<\?xml\s[^?]*?\bencoding\s*=\s*["']([^"']*)["']/;
const UTF8_NAMES = /^(utf-?8|us-ascii|ascii)$/i;
const ONLY_ASCII = /^[\u0000-\u007F]*$/;

/**
 * Looks at the whole body before any parser does, building nothing, and throws an RpcFault at the
 * first thing Tracker refuses: a body over MAX_XML_RPC_BODY_BYTES, a character XML forbids, a
 * document type or entity declaration (`<!DOCTYPE`, `<!ENTITY`: the only way to an entity
 * expansion bomb or an external entity, and no XML-RPC client sends one; Bugzilla's parser is set
 * against them too, with XML::Parser's NoExpand), elements nested deeper than MAX_ELEMENT_DEPTH or
 * more of them than a body of MAX_BODY_VALUES values has, and an encoding other than UTF-8.
 * Whatever passes is small and shallow enough for the parser to read quickly; whether it is
 * well-formed is the parser's business. Returns the body without its byte order mark and with
 * line ends normalised to LF, as an XML processor reads it (XML 1.0, 2.11).
 */
export function scanXmlRpcBody(body: string): string {
  if (body.length > MAX_XML_RPC_BODY_BYTES || Buffer.byteLength(body, 'utf8') > MAX_XML_RPC_BODY_BYTES)
    throw faultOf(
      errors.invalidParameter(
        `The request body is larger than ${MAX_XML_RPC_BODY_BYTES} bytes, the most a request to Tracker can carry.`,
      ),
    );
  const text = (body.startsWith('\uFEFF') ? body.slice(1) : body).replace(/\r\n?/g, '\n');
  const bad = NOT_XML_CHARACTER.exec(text);
  if (bad) {
    const point = bad[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
    throw notWellFormed(`it contains the character U+${point}, which XML does not allow.`);
  }
  const encoding = XML_DECLARATION_ENCODING.exec(text)?.[1];
  if (encoding !== undefined && !UTF8_NAMES.test(encoding) && !ONLY_ASCII.test(text))
    throw unsupportedEncoding(encoding);
  scanMarkup(text);
  return text;
}

function scanMarkup(text: string): void {
  let depth = 0;
  let elements = 0;
  const attributes = { count: 0 };
  let at = text.indexOf('<');
  while (at >= 0) {
    let end: number;
    if (text.startsWith('<!--', at)) end = closing(text, at + 4, '-->');
    else if (text.startsWith('<![CDATA[', at)) end = closing(text, at + 9, ']]>');
    else if (text.startsWith('<!', at)) throw declarationRefused(text, at);
    else if (text.startsWith('<?', at)) end = closing(text, at + 2, '?>');
    else if (text.startsWith('</', at)) {
      end = closing(text, at + 2, '>');
      depth--;
    } else {
      end = tagEnd(text, at + 1, attributes);
      if (++elements > MAX_ELEMENTS)
        throw faultOf(errors.invalidParameter(`The request body has more than ${MAX_BODY_VALUES} values in all.`));
      if (text.charCodeAt(end - 2) !== 0x2f /* "/>" closes an empty element */ && ++depth > MAX_ELEMENT_DEPTH)
        throw faultOf(errors.invalidParameter(`The request body is nested too deeply (at most ${MAX_DEPTH} levels).`));
    }
    at = text.indexOf('<', end);
  }
}

/** Where the markup opened before `from` ends (just after `terminator`). */
function closing(text: string, from: number, terminator: string): number {
  const found = text.indexOf(terminator, from);
  if (found < 0) throw notWellFormed(`a '${terminator}' is missing at the end.`);
  return found + terminator.length;
}

/**
 * Just after the `>` of a start tag: a `>` inside a quoted attribute value does not end it. Counts
 * the tag's attributes (each opens a quoted value) into `attributes`, and refuses a body with more
 * than MAX_XML_RPC_ATTRIBUTES of them before any parser sees it.
 */
function tagEnd(text: string, from: number, attributes: { count: number }): number {
  let quote = 0;
  for (let at = from; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (quote !== 0) {
      if (code === quote) quote = 0;
    } else if (code === 0x22 || code === 0x27) {
      quote = code;
      if (++attributes.count > MAX_XML_RPC_ATTRIBUTES)
        throw faultOf(
          errors.invalidParameter(
            `The request body has more than ${MAX_XML_RPC_ATTRIBUTES} attributes; XML-RPC uses none.`,
          ),
        );
    } else if (code === 0x3e) return at + 1;
    else if (code === 0x3c) throw notWellFormed('a tag is not closed.');
  }
  throw notWellFormed('a tag is not closed.');
}

function declarationRefused(text: string, at: number) {
  const kind = /^<!([A-Za-z]*)/.exec(text.slice(at, at + 12))?.[1]?.toUpperCase() || 'markup';
  return invalidXmlRpc(
    `it contains a ${kind} declaration; Tracker refuses document types and entity declarations in XML-RPC requests.`,
  );
}
