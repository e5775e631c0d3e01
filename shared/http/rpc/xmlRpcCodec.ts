import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { MAX_BODY_VALUES, MAX_DEPTH, MAX_LIST_LENGTH } from '../../domain/inputLimits.ts';
import { errors } from '../../errors.ts';
import type { RpcCall } from './rpcCall.ts';
import { scanXmlRpcBody } from './xmlRpcBodyScan.ts';
import { faultOf, invalidXmlRpc, notWellFormed, parserSays, shown, tag } from './xmlRpcFaults.ts';
import { base64Value, booleanValue, dateTimeValue, doubleValue, integerValue } from './xmlRpcScalars.ts';
import { resolveReferences } from './xmlRpcText.ts';

export { encodeXmlRpcFault, encodeXmlRpcResponse } from './xmlRpcResponse.ts';

/**
 * Reads an XML-RPC methodCall into an RpcCall, or throws an RpcFault saying what is wrong with it.
 *
 * The body is first scanned whole (xmlRpcBodyScan.ts: size, characters, declarations, depth,
 * element count), then checked for well-formedness and parsed by fast-xml-parser with every
 * entity left unexpanded; references are resolved here (xmlRpcText.ts). The tree becomes JSON
 * values as Bugzilla 5.2 reads them (xmlRpcScalars.ts), counted against the limits a JSON body
 * has (shared/domain/inputLimits.ts). Structs become objects without a prototype, so a member
 * named `__proto__` or `constructor` is an ordinary key, as it is in JSON.parse's objects.
 */
export function decodeXmlRpcCall(body: string): RpcCall {
  const text = scanXmlRpcBody(body);
  const validity = XMLValidator.validate(text);
  if (validity !== true) {
    // An error at the very start (an empty body) has a line but no column.
    const { line, col } = validity.err;
    const where = col === undefined ? `line ${line}` : `line ${line}, column ${col}`;
    throw notWellFormed(`${parserSays(validity.err.msg)} (${where})`);
  }
  let document: XmlNode[];
  try {
    document = parser.parse(text) as XmlNode[];
  } catch (error) {
    throw notWellFormed(parserSays((error as Error).message));
  }
  const roots = contentOf(document, 'the document', true);
  if (roots.elements.length !== 1 || roots.text.trim() !== '')
    throw notWellFormed('a document is one element, with nothing but whitespace around it.');
  const root = roots.elements[0]!;
  if (root.name !== 'methodCall') throw invalidXmlRpc(`the request is a ${tag(root.name)}, not a <methodCall>.`);
  return readMethodCall(root);
}

/** Bugzilla's methods take their parameters as one struct; XML-RPC names what may surround it. */
function readMethodCall(call: Element): RpcCall {
  const parts = contentOf(call.children, '<methodCall>').elements;
  const names = parts.filter((part) => part.name === 'methodName');
  const params = parts.filter((part) => part.name === 'params');
  const other = parts.find((part) => part.name !== 'methodName' && part.name !== 'params');
  if (other) throw invalidXmlRpc(`${tag(other.name)} has no place in a <methodCall>.`);
  if (names.length !== 1) throw invalidXmlRpc('a <methodCall> has exactly one <methodName>.');
  if (params.length > 1) throw invalidXmlRpc('a <methodCall> has at most one <params>.');
  return { method: methodName(names[0]!), params: params[0] ? readParams(params[0]) : Object.create(null) };
}

/** The specification's method names: letters, digits, `_`, `.`, `:` and `/`. */
const METHOD_NAME = /^[A-Za-z0-9_.:/]{1,128}$/;

function methodName(element: Element): string {
  const name = textOf(element).trim();
  if (!METHOD_NAME.test(name)) throw invalidXmlRpc(`"${shown(name)}" is not a method name.`);
  return name;
}

function readParams(params: Element): Record<string, unknown> {
  const list = contentOf(params.children, '<params>').elements;
  const stray = list.find((element) => element.name !== 'param');
  if (stray) throw invalidXmlRpc(`${tag(stray.name)} has no place in <params>.`);
  if (list.length === 0) return Object.create(null);
  if (list.length > 1)
    throw invalidXmlRpc(
      `the call has ${list.length} parameters; Bugzilla's methods take one <struct> of named parameters.`,
    );
  const [value, ...extra] = contentOf(list[0]!.children, '<param>').elements;
  if (value?.name !== 'value' || extra.length > 0) throw invalidXmlRpc('a <param> holds one <value>.');
  const typed = contentOf(value.children, '<value>', true);
  const struct = typed.elements[0];
  if (struct?.name !== 'struct' || typed.elements.length > 1 || typed.text.trim() !== '')
    throw invalidXmlRpc(
      `the parameter is ${struct ? `a ${tag(struct.name)}` : 'a string'}; Bugzilla's methods take one <struct> of named parameters.`,
    );
  return readStruct(struct, { values: 1 }, 1);
}

/** What decoding has counted so far, against MAX_BODY_VALUES. */
interface Tally {
  values: number;
}

const tooManyValues = () =>
  faultOf(errors.invalidParameter(`The request body has more than ${MAX_BODY_VALUES} values in all.`));
const tooManyEntries = () =>
  faultOf(
    errors.invalidParameter(
      `The request body has an object or list with more than ${MAX_LIST_LENGTH} entries, the most allowed.`,
    ),
  );

/** `depth` counts containers from the call's struct (1); a JSON body may nest MAX_DEPTH below its object. */
function enterContainer(tally: Tally, depth: number): void {
  if (depth > MAX_DEPTH + 1)
    throw faultOf(errors.invalidParameter(`The request body is nested too deeply (at most ${MAX_DEPTH} levels).`));
  if (++tally.values > MAX_BODY_VALUES) throw tooManyValues();
}

function readValue(value: Element, tally: Tally, depth: number): unknown {
  const content = contentOf(value.children, '<value>', true);
  if (content.elements.length === 0) {
    if (++tally.values > MAX_BODY_VALUES) throw tooManyValues();
    return content.text; // a value without a type element is a string
  }
  if (content.elements.length > 1 || content.text.trim() !== '')
    throw invalidXmlRpc('a <value> holds one typed value or text, not both.');
  const typed = content.elements[0]!;
  if (typed.name === 'struct' || typed.name === 'array') {
    enterContainer(tally, depth + 1);
    return typed.name === 'struct' ? readStruct(typed, tally, depth + 1) : readArray(typed, tally, depth + 1);
  }
  if (++tally.values > MAX_BODY_VALUES) throw tooManyValues();
  return readScalar(typed);
}

/**
 * Apache XML-RPC's extensions carry a namespace prefix (`<ex:nil/>`, `<ex:i8>`); other prefixed
 * types are Java objects Bugzilla has no use for.
 */
function readScalar(typed: Element): unknown {
  const local = typed.name.slice(typed.name.indexOf(':') + 1);
  if (local !== typed.name && local !== 'nil' && local !== 'i8')
    throw invalidXmlRpc(`${tag(typed.name)} is not an XML-RPC type.`);
  // "<nil> ... is always considered to be undef, no matter what it contains" (XMLRPC.pm's POD).
  if (local === 'nil') return null;
  const text = textOf(typed);
  switch (local) {
    case 'string':
      return text;
    case 'int':
    case 'i4':
    case 'i8':
      return integerValue(local, text);
    case 'double':
      return doubleValue(text);
    case 'boolean':
      return booleanValue(text);
    case 'dateTime.iso8601':
      return dateTimeValue(text);
    case 'base64':
      return base64Value(text);
    default:
      throw invalidXmlRpc(`${tag(typed.name)} is not an XML-RPC type.`);
  }
}

function readStruct(struct: Element, tally: Tally, depth: number): Record<string, unknown> {
  const members = contentOf(struct.children, '<struct>').elements;
  if (members.length > MAX_LIST_LENGTH) throw tooManyEntries();
  const result: Record<string, unknown> = Object.create(null);
  for (const member of members) {
    if (member.name !== 'member') throw invalidXmlRpc(`${tag(member.name)} has no place in a <struct>.`);
    const parts = contentOf(member.children, '<member>').elements;
    const name = parts.filter((part) => part.name === 'name');
    const value = parts.filter((part) => part.name === 'value');
    if (name.length !== 1 || value.length !== 1 || parts.length !== 2)
      throw invalidXmlRpc('a <member> holds one <name> and one <value>.');
    // A repeated name keeps its last value, as JSON.parse and Bugzilla's Perl hashes do.
    result[textOf(name[0]!)] = readValue(value[0]!, tally, depth);
  }
  return result;
}

/** An `<array>` without its `<data>` is empty, as XMLRPC::Lite reads it. */
function readArray(array: Element, tally: Tally, depth: number): unknown[] {
  const [data, ...extra] = contentOf(array.children, '<array>').elements;
  if (data === undefined) return [];
  if (data.name !== 'data' || extra.length > 0) throw invalidXmlRpc('an <array> holds one <data>.');
  const values = contentOf(data.children, '<data>').elements;
  if (values.length > MAX_LIST_LENGTH) throw tooManyEntries();
  return values.map((value) => {
    if (value.name !== 'value') throw invalidXmlRpc(`${tag(value.name)} has no place in <data>.`);
    return readValue(value, tally, depth);
  });
}

/**
 * fast-xml-parser's ordered tree: an element is `{ name: children }`, text `{ '#text': text }`,
 * a CDATA section `{ '#cdata': [{ '#text': text }] }`. Comments, the XML declaration and processing
 * instructions are left out; attributes (a namespace declaration at most) are ignored.
 */
type XmlNode = Record<string, unknown>;

interface Element {
  name: string;
  children: XmlNode[];
}

const TEXT = '#text';
const CDATA = '#cdata';

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: true,
  processEntities: false,
  htmlEntities: false,
  trimValues: false,
  parseTagValue: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  textNodeName: TEXT,
  cdataPropName: CDATA,
});

/**
 * The element children of a node and its text (references resolved, CDATA as it is). Text is
 * allowed only where `textAllowed`; elsewhere only whitespace may stand between elements.
 */
function contentOf(nodes: XmlNode[], where: string, textAllowed = false): { elements: Element[]; text: string } {
  const elements: Element[] = [];
  let text = '';
  for (const node of nodes) {
    if (Object.hasOwn(node, TEXT)) text += resolveReferences(String(node[TEXT]));
    else if (Object.hasOwn(node, CDATA)) text += cdataText(node[CDATA]);
    else {
      const name = Object.keys(node).find((key) => key !== ':@');
      if (name !== undefined) elements.push({ name, children: node[name] as XmlNode[] });
    }
  }
  if (!textAllowed && text.trim() !== '') throw invalidXmlRpc(`${where} holds text where only elements belong.`);
  return { elements, text };
}

function cdataText(section: unknown): string {
  return (section as XmlNode[]).map((part) => String(part[TEXT] ?? '')).join('');
}

/** The text of an element that must hold nothing else. */
function textOf(element: Element): string {
  const content = contentOf(element.children, tag(element.name), true);
  if (content.elements.length > 0)
    throw invalidXmlRpc(
      `${tag(element.name)} holds an element (${tag(content.elements[0]!.name)}) where text belongs.`,
    );
  return content.text;
}
