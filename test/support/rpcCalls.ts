import { expect } from 'vitest';
import { call, type TestApp } from './testApp.ts';

/**
 * One call of a Bugzilla RPC method over JSON-RPC or XML-RPC, as client libraries make it: the
 * parameters in one struct, credentials inside them, and the answer read back as a result or as
 * a fault with Bugzilla's code and message.
 */
export type RpcOutcome =
  | { result: any; fault?: undefined }
  | { fault: { code: number; message: string }; result?: undefined };

export type RpcProtocol = 'json' | 'xml';

export async function jsonRpc(
  app: TestApp,
  method: string,
  params: Record<string, unknown>,
  apiKey?: string,
): Promise<RpcOutcome> {
  const response = await call(app, 'POST', '/jsonrpc.cgi', {
    rawBody: JSON.stringify({ method, params: [apiKey ? { ...params, Bugzilla_api_key: apiKey } : params], id: 1 }),
    headers: { 'Content-Type': 'application/json' },
  });
  expect(response.status, response.text).toBe(200);
  if (response.body.error) return { fault: { code: response.body.error.code, message: response.body.error.message } };
  return { result: response.body.result };
}

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A value as XMLRPC::Lite and Python's xmlrpc.client write one (integers as <int>, others as <double>). */
export function xmlValue(value: unknown): string {
  if (value === null || value === undefined) return '<value><nil/></value>';
  if (typeof value === 'boolean') return `<value><boolean>${value ? 1 : 0}</boolean></value>`;
  if (typeof value === 'number')
    return Number.isInteger(value) ? `<value><int>${value}</int></value>` : `<value><double>${value}</double></value>`;
  if (typeof value === 'string') return `<value><string>${escapeXml(value)}</string></value>`;
  if (Array.isArray(value))
    return `<value><array><data>${value.map((item) => xmlValue(item)).join('')}</data></array></value>`;
  const members = Object.entries(value as Record<string, unknown>)
    .map(([name, item]) => `<member><name>${escapeXml(name)}</name>${xmlValue(item)}</member>`)
    .join('');
  return `<value><struct>${members}</struct></value>`;
}

const unescapeXml = (text: string) =>
  text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#(\d+);/g, (_, code) => String.fromCodePoint(Number(code)))
    .replace(/&amp;/g, '&');

/** Reads the XML-RPC values of a methodResponse (enough for the answers Tracker writes). */
function readXmlValues(xml: string): unknown {
  // Empty elements are written `<data />`, `<struct />`: read them as `<data/>`, `<struct/>`.
  const tokens = (xml.match(/<[^>]+>|[^<]+/g) ?? []).map((token) => token.replace(/\s+\/>$/, '/>'));
  let at = 0;
  const next = () => tokens[at++] ?? '';
  const skipSpace = () => {
    while (at < tokens.length && !tokens[at]!.startsWith('<') && tokens[at]!.trim() === '') at++;
  };
  const textUntil = (close: string) => {
    let text = '';
    while (tokens[at] !== close) text += next();
    next();
    return unescapeXml(text);
  };
  const value = (): unknown => {
    skipSpace();
    expect(next()).toBe('<value>');
    skipSpace();
    const open = next();
    let result: unknown;
    if (open === '</value>') return '';
    if (!open.startsWith('<')) {
      result = unescapeXml(open);
      expect(next()).toBe('</value>');
      return result;
    }
    const tag = open.replace(/^<|\/?>$/g, '');
    if (tag === 'nil') result = null;
    else if (open === '<struct/>') result = {};
    else if (tag === 'struct') {
      const object: Record<string, unknown> = {};
      skipSpace();
      while (tokens[at] === '<member>') {
        next();
        skipSpace();
        next(); // <name>
        const name = textUntil('</name>');
        object[name] = value();
        skipSpace();
        next(); // </member>
        skipSpace();
      }
      next(); // </struct>
      result = object;
    } else if (tag === 'array') {
      const items: unknown[] = [];
      skipSpace();
      if (tokens[at] === '<data/>') next();
      else {
        next(); // <data>
        skipSpace();
        while (tokens[at] === '<value>') {
          items.push(value());
          skipSpace();
        }
        next(); // </data>
      }
      skipSpace();
      next(); // </array>
      result = items;
    } else {
      const text = open.endsWith('/>') ? '' : textUntil(`</${tag}>`);
      if (tag === 'int' || tag === 'i4' || tag === 'double') result = Number(text);
      else if (tag === 'boolean') result = text.trim() === '1';
      else result = text;
    }
    skipSpace();
    expect(next()).toBe('</value>');
    return result;
  };
  while (at < tokens.length && tokens[at] !== '<value>') next();
  return value();
}

export async function xmlRpc(
  app: TestApp,
  method: string,
  params: Record<string, unknown>,
  apiKey?: string,
): Promise<RpcOutcome> {
  const body = `<?xml version="1.0"?><methodCall><methodName>${method}</methodName><params><param>${xmlValue(
    apiKey ? { ...params, Bugzilla_api_key: apiKey } : params,
  )}</param></params></methodCall>`;
  const response = await call(app, 'POST', '/xmlrpc.cgi', { rawBody: body, headers: { 'Content-Type': 'text/xml' } });
  expect(response.status, response.text).toBe(200);
  const answer = readXmlValues(response.text) as any;
  if (response.text.includes('<fault>')) return { fault: { code: answer.faultCode, message: answer.faultString } };
  return { result: answer };
}

export const rpc = (protocol: RpcProtocol) => (protocol === 'json' ? jsonRpc : xmlRpc);
