import { INTERNAL_ERROR } from '../../trackerError.ts';
import type { RpcFault } from './rpcCall.ts';
import { isBase64Text } from './xmlRpcScalars.ts';
import { escapeXmlText } from './xmlRpcText.ts';
import { REST_DATE_TIME, xmlRpcTypeHint } from './xmlRpcTypes.ts';

/**
 * A method's JSON answer as Bugzilla 5.2 writes it in XML-RPC
 * (test/fixtures/bugzilla-5.2/xmlrpc-bug-get.json): members in the answer's order, JSON
 * types mapped to XML-RPC's (integers `<int>`, other numbers `<double>`, booleans `<boolean>1`),
 * times, time-tracking hours and attachment data typed by member name (xmlRpcTypes.ts), empty
 * elements written `<string />`, `<data />`.
 *
 * A null is left out, member or list entry: Bugzilla's serializer strips undefined values from
 * every answer (_strip_undefs in WebService/Server/XMLRPC.pm: "Bugzilla does not use <nil> values
 * in returned data, because currently most clients do not support <nil>"), which is why its Bug.get
 * has no `dupe_of` or `deadline` when REST's has them null. Only an answer that is null as a whole,
 * which has nowhere to be left out of, is `<nil/>`.
 */
const DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>';

export function encodeXmlRpcResponse(value: unknown): string {
  const out = [DECLARATION, '<methodResponse><params><param>'];
  const answer = jsonValueOf(value);
  if (isAbsent(answer)) out.push('<value><nil/></value>');
  else writeValue(out, answer, undefined);
  out.push('</param></params></methodResponse>');
  return out.join('');
}

/** A fault as Bugzilla writes one: faultString, then faultCode. */
export function encodeXmlRpcFault(fault: RpcFault): string {
  const code = Number.isSafeInteger(fault.code) ? fault.code : INTERNAL_ERROR;
  return `${DECLARATION}<methodResponse><fault><value><struct><member><name>faultString</name>${stringValue(fault.message)}</member><member><name>faultCode</name><value><int>${code}</int></value></member></struct></value></fault></methodResponse>`;
}

/** What JSON.stringify would write for the value: an object with toJSON (a RawJson, a Date) gives its JSON value. */
function jsonValueOf(value: unknown): unknown {
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function')
    return (value as { toJSON: () => unknown }).toJSON();
  return value;
}

/** Values JSON writes as null or leaves out. */
function isAbsent(value: unknown): boolean {
  return (
    value === null ||
    value === undefined ||
    typeof value === 'function' ||
    typeof value === 'symbol' ||
    (typeof value === 'number' && !Number.isFinite(value))
  );
}

const stringValue = (text: string) =>
  text === '' ? '<value><string /></value>' : `<value><string>${escapeXmlText(text)}</string></value>`;

function writeValue(out: string[], value: unknown, member: string | undefined): void {
  const hint = xmlRpcTypeHint(member, value);
  if (hint === 'dateTime.iso8601') {
    // The REST API's `2026-11-24T21:48:24Z` is XML-RPC's `20261124T21:48:24`: UTC, without a zone.
    const time = (value as string).replace(REST_DATE_TIME, '$1$2$3T$4:$5:$6');
    out.push(`<value><dateTime.iso8601>${time}</dateTime.iso8601></value>`);
    return;
  }
  if (hint === 'double') {
    out.push(`<value><double>${(value as number).toFixed(2)}</double></value>`);
    return;
  }
  // Base64 text needs no escaping; `data` that is not base64 is sent as the string it is.
  if (hint === 'base64' && isBase64Text(value as string)) {
    out.push(value === '' ? '<value><base64 /></value>' : `<value><base64>${value}</base64></value>`);
    return;
  }
  switch (typeof value) {
    case 'string':
      out.push(stringValue(value));
      return;
    case 'boolean':
      out.push(`<value><boolean>${value ? 1 : 0}</boolean></value>`);
      return;
    case 'number':
      out.push(
        Number.isSafeInteger(value) ? `<value><int>${value}</int></value>` : `<value><double>${value}</double></value>`,
      );
      return;
    case 'bigint':
      out.push(`<value><int>${value}</int></value>`);
      return;
  }
  if (Array.isArray(value)) writeArray(out, value);
  else writeStruct(out, value as Record<string, unknown>);
}

function writeArray(out: string[], list: readonly unknown[]): void {
  const start = out.length;
  out.push('<value><array><data>');
  for (const entry of list) {
    const json = jsonValueOf(entry);
    if (!isAbsent(json)) writeValue(out, json, undefined);
  }
  if (out.length === start + 1) out[start] = '<value><array><data />';
  else out.push('</data>');
  out.push('</array></value>');
}

function writeStruct(out: string[], struct: Record<string, unknown>): void {
  const start = out.length;
  out.push('<value><struct>');
  for (const name of Object.keys(struct)) {
    const json = jsonValueOf(struct[name]);
    if (isAbsent(json)) continue;
    out.push(`<member><name>${escapeXmlText(name)}</name>`);
    writeValue(out, json, name);
    out.push('</member>');
  }
  if (out.length === start + 1) out[start] = '<value><struct />';
  else out.push('</struct>');
  out.push('</value>');
}
