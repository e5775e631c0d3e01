import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BODY_VALUES, MAX_DEPTH } from '../../shared/domain/inputLimits.ts';
import { MAX_XML_RPC_ATTRIBUTES, MAX_XML_RPC_BODY_BYTES } from '../../shared/http/rpc/xmlRpcBodyScan.ts';
import { startTestApp, type TestApp } from '../support/testApp.ts';

/**
 * Hostile requests to the XML-RPC and JSON-RPC endpoints over HTTP: entity expansion bombs,
 * external entities, deep nesting, bodies over the limits, wrong content types, bytes that are not
 * UTF-8, empty bodies. Each must get a fault (HTTP 200, as Bugzilla answers faults) or a 4xx, never
 * a 500 and never a hang: every call has a client timeout, and the endpoint still answers an
 * ordinary call afterwards.
 */
let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app?.close();
});

/** Well above what any of these takes (a few hundred milliseconds at most), well below the test's timeout. */
const CLIENT_TIMEOUT_MS = 20_000;

interface Answer {
  status: number;
  contentType: string | null;
  text: string;
}

async function send(path: string, body: string | Uint8Array, contentType?: string): Promise<Answer> {
  const response = await fetch(`${app.url}${path}`, {
    method: 'POST',
    headers: contentType === undefined ? {} : { 'Content-Type': contentType },
    body,
    signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS),
  });
  const answer = {
    status: response.status,
    contentType: response.headers.get('content-type'),
    text: await response.text(),
  };
  expect(answer.status, answer.text.slice(0, 500)).toBeLessThan(500);
  return answer;
}

const xmlRpc = (body: string | Uint8Array, contentType = 'text/xml') => send('/xmlrpc.cgi', body, contentType);
const jsonRpc = (body: string | Uint8Array, contentType = 'application/json') =>
  send('/jsonrpc.cgi', body, contentType);

/** The fault of an XML-RPC answer, which must be one (HTTP 200, text/xml, a <fault>). */
function xmlFault(answer: Answer): { code: number; message: string } {
  expect(answer.status, answer.text.slice(0, 500)).toBe(200);
  expect(answer.contentType).toBe('text/xml; charset=UTF-8');
  const code = /<name>faultCode<\/name><value><int>(-?\d+)<\/int>/.exec(answer.text);
  const message = /<name>faultString<\/name><value><string>([^<]*)<\/string>/.exec(answer.text);
  expect(code && message, answer.text.slice(0, 500)).toBeTruthy();
  return {
    code: Number(code![1]),
    message: message![1]!.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&'),
  };
}

/** The error of a JSON-RPC answer, which must be one (HTTP 200, JSON, an error object). */
function jsonError(answer: Answer): { code: number; message: string } {
  expect(answer.status, answer.text.slice(0, 500)).toBe(200);
  expect(answer.contentType).toBe('application/json; charset=UTF-8');
  const error = JSON.parse(answer.text).error;
  expect(error, answer.text.slice(0, 500)).toMatchObject({ code: expect.any(Number), message: expect.any(String) });
  return error;
}

const methodCall = (method: string, paramsXml = '') =>
  `<?xml version="1.0"?><methodCall><methodName>${method}</methodName><params>${paramsXml}</params></methodCall>`;

/** A call of Bug.search with one string member whose content is `inner` (XML, as given). */
const searchWith = (inner: string) =>
  methodCall(
    'Bug.search',
    `<param><value><struct><member><name>summary</name><value><string>${inner}</string></value></member></struct></value></param>`,
  );

const BILLION_LAUGHS = [
  '<?xml version="1.0"?>',
  '<!DOCTYPE lolz [',
  '<!ENTITY lol "lol">',
  ...Array.from(
    { length: 8 },
    (_, level) => `<!ENTITY lol${level + 2} "${`&lol${level === 0 ? '' : level + 1};`.repeat(10)}">`,
  ),
  ']>',
  searchWith('&lol9;').replace('<?xml version="1.0"?>', ''),
].join('\n');

/** The ordinary calls that must still work after each hostile one. */
async function stillAnswers(): Promise<void> {
  const xml = await xmlRpc(methodCall('Bugzilla.version'));
  expect(xml.status).toBe(200);
  expect(xml.text).toContain('<name>version</name><value><string>5.2</string></value>');
  const json = await jsonRpc(JSON.stringify({ method: 'Bugzilla.version', params: [{}], id: 1 }));
  expect(JSON.parse(json.text)).toEqual({ result: { version: '5.2' }, error: null, id: 1 });
}

describe('hostile XML-RPC requests', () => {
  it('refuses an entity expansion bomb (billion laughs) without expanding it', async () => {
    const fault = xmlFault(await xmlRpc(BILLION_LAUGHS));
    expect(fault.code).toBe(-32600);
    expect(fault.message).toMatch(/DOCTYPE declaration/);
    await stillAnswers();
  });

  it('refuses external entities, general and parameter, without fetching them', async () => {
    const general = xmlFault(
      await xmlRpc(
        `<?xml version="1.0"?><!DOCTYPE call [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>${searchWith('&xxe;').replace('<?xml version="1.0"?>', '')}`,
      ),
    );
    expect(general.code).toBe(-32600);
    // Port 9 (discard) on this machine: a parser that fetched it would wait or fail, not answer a fault at once.
    const parameter = xmlFault(
      await xmlRpc(
        `<?xml version="1.0"?><!DOCTYPE call [<!ENTITY % remote SYSTEM "http://127.0.0.1:9/evil.dtd"> %remote;]>${methodCall('Bugzilla.version').replace('<?xml version="1.0"?>', '')}`,
      ),
    );
    expect(parameter.code).toBe(-32600);
    // An entity used without a declaration is undefined, not looked up anywhere.
    const undeclared = xmlFault(await xmlRpc(searchWith('&passwd;')));
    expect(undeclared).toMatchObject({ code: -32700, message: expect.stringMatching(/'&passwd;' is not defined/) });
    for (const fault of [general, parameter, undeclared]) expect(fault.message).not.toContain('root:');
    await stillAnswers();
  });

  it('refuses a body of attributes before any parser reads them, and takes a namespace declaration', async () => {
    // A 6 MB body held 620,000 attributes: seconds of a parser's work, unauthenticated, before this
    // check. 200,000 (1.6 MB) are refused as those were, and upload quickly on a busy machine.
    const attributes = Array.from({ length: 200_000 }, (_, n) => `a${n.toString(36)}=""`).join(' ');
    const many = methodCall('Bugzilla.version').replace('<methodCall>', `<methodCall ${attributes}>`);
    expect(many.length).toBeLessThanOrEqual(MAX_XML_RPC_BODY_BYTES);
    const refusal = {
      code: 32000,
      message: `The request body has more than ${MAX_XML_RPC_ATTRIBUTES} attributes; XML-RPC uses none.`,
    };
    expect(xmlFault(await xmlRpc(many))).toEqual(refusal);
    // Spread over many elements, and with single quotes, the same.
    const spread = searchWith('x').replace(/<(value|member|name|string)>/g, `<$1 a='1' b='2'>`);
    expect(
      xmlFault(await xmlRpc(spread.repeat(1).replace('<methodCall>', `<methodCall ${'c="" '.repeat(60)}>`))),
    ).toEqual(refusal);
    const namespaced = methodCall('Bugzilla.version').replace('<methodCall>', '<methodCall xmlns:ex="urn:example">');
    expect((await xmlRpc(namespaced)).text).toContain('<name>version</name><value><string>5.2</string></value>');
    await stillAnswers();
  });

  it('refuses values nested deeper than a JSON body may be, however deep', async () => {
    const arrays = (depth: number) =>
      `${'<value><array><data>'.repeat(depth)}<value><int>1</int></value>${'</data></array></value>'.repeat(depth)}`;
    for (const depth of [20, 5_000, 100_000]) {
      const fault = xmlFault(
        await xmlRpc(
          methodCall(
            'Bug.get',
            `<param><value><struct><member><name>ids</name>${arrays(depth)}</member></struct></value></param>`,
          ),
        ),
      );
      expect(fault).toEqual({
        code: 32000,
        message: `The request body is nested too deeply (at most ${MAX_DEPTH} levels).`,
      });
    }
    const structs = `${'<struct><member><name>a</name><value>'.repeat(300)}x${'</value></member></struct>'.repeat(300)}`;
    expect(xmlFault(await xmlRpc(methodCall('Bug.get', `<param><value>${structs}</value></param>`))).code).toBe(32000);
    await stillAnswers();
  });

  it('refuses a body just over the limit, a 9 MB one, and answers 413 over 10 MB', async () => {
    const frame = searchWith('');
    const justOver = searchWith('a'.repeat(MAX_XML_RPC_BODY_BYTES + 1 - frame.length));
    expect(justOver.length).toBe(MAX_XML_RPC_BODY_BYTES + 1);
    for (const body of [justOver, searchWith('a'.repeat(9 * 1024 * 1024))]) {
      expect(xmlFault(await xmlRpc(body))).toEqual({
        code: 32000,
        message: `The request body is larger than ${MAX_XML_RPC_BODY_BYTES} bytes, the most a request to Tracker can carry.`,
      });
    }
    // Multi-byte characters count as the bytes they take.
    const wide = searchWith('é'.repeat(Math.ceil(MAX_XML_RPC_BODY_BYTES / 2)));
    expect(wide.length).toBeLessThan(MAX_XML_RPC_BODY_BYTES);
    expect(xmlFault(await xmlRpc(wide)).code).toBe(32000);
    // API Gateway's own limit, before any function runs.
    const huge = await xmlRpc(searchWith('a'.repeat(11 * 1024 * 1024)));
    expect(huge.status).toBe(413);
    await stillAnswers();
  });

  it('refuses more values than a JSON body may have, and echoes no megabytes of the request', async () => {
    const ints = `<param><value><struct><member><name>ids</name><value><array><data>${'<value><int>1</int></value>'.repeat(200_000)}</data></array></value></member></struct></value></param>`;
    expect(xmlFault(await xmlRpc(methodCall('Bug.get', ints))).message).toBe(
      `The request body has more than ${MAX_BODY_VALUES} values in all.`,
    );
    // Names of elements and what the parser quotes are the caller's text, as long as it made them.
    for (const body of [
      `<?xml version="1.0"?><${'a'.repeat(5_000_000)}/>`,
      `<?xml version="1.0"?><methodCall><${'b'.repeat(5_000_000)}/></methodCall>`,
      `<?xml version="1.0"?><methodCall><methodName>x</methodName><params></${'c'.repeat(5_000_000)}></methodCall>`,
      searchWith(`<${'d'.repeat(5_000_000)}/>`),
    ]) {
      const answer = await xmlRpc(body);
      const fault = xmlFault(answer);
      expect(fault.code).toBeLessThan(0);
      expect(answer.text.length).toBeLessThan(1_000);
    }
    await stillAnswers();
  });

  it('refuses a body that is not XML-RPC, is empty, or is not UTF-8', async () => {
    const empty = xmlFault(await xmlRpc(''));
    expect(empty.code).toBe(-32700);
    expect(empty.message).not.toContain('undefined');
    expect(xmlFault(await xmlRpc('not xml at all')).code).toBe(-32700);
    expect(xmlFault(await xmlRpc('<?xml version="1.0"?><methodCall><methodName>Bug.get')).code).toBe(-32700);
    const notUtf8 = Buffer.concat([
      Buffer.from(searchWith('').split('</string>')[0]!),
      Buffer.from([0xff, 0xfe, 0xc3]),
      Buffer.from(`</string>${searchWith('').split('</string>')[1]}`),
    ]);
    expect(xmlFault(await xmlRpc(notUtf8))).toEqual({
      code: 32000,
      message: 'The request body is not valid UTF-8: Tracker accepts only UTF-8 text.',
    });
    const utf16 = Buffer.from(
      `\uFEFF${methodCall('Bugzilla.version').replace('?>', ' encoding="UTF-16"?>')}`,
      'utf16le',
    );
    expect(xmlFault(await xmlRpc(utf16)).code).toBe(32000);
    await stillAnswers();
  });

  it("answers a body of another content type with Bugzilla's fault, before reading it", async () => {
    for (const [contentType, shown] of [
      ['application/json', 'application/json'],
      ['application/x-www-form-urlencoded', 'application/x-www-form-urlencoded'],
      [undefined, 'text/plain;charset=UTF-8'],
    ] as const) {
      const fault = xmlFault(await send('/xmlrpc.cgi', BILLION_LAUGHS, contentType));
      expect(fault).toEqual({
        code: 32612,
        message: `When using XML-RPC, you cannot send data as ${shown}. Allowed content types are text/xml, application/xml.`,
      });
    }
    await stillAnswers();
  });
});

describe('hostile JSON-RPC requests', () => {
  it('refuses deep nesting, however deep', async () => {
    for (const depth of [20, 100_000]) {
      const error = jsonError(
        await jsonRpc(`{"method":"Bug.get","params":[{"ids":${'['.repeat(depth)}1${']'.repeat(depth)}}],"id":1}`),
      );
      expect(error).toMatchObject({
        code: 32000,
        message: `The request body is nested too deeply (at most ${MAX_DEPTH} levels).`,
      });
    }
    await stillAnswers();
  });

  it('answers an empty body 403 "No data.", as Bugzilla', async () => {
    const answer = await jsonRpc('');
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.text)).toMatchObject({ error: true, message: 'No data.' });
    await stillAnswers();
  });

  it('refuses bytes that are not UTF-8, and text that is not JSON', async () => {
    const notUtf8 = Buffer.concat([
      Buffer.from('{"method":"Bug.search","params":[{"summary":"'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('"}],"id":1}'),
    ]);
    expect(jsonError(await jsonRpc(notUtf8))).toMatchObject({
      code: 32000,
      message: 'The request body is not valid UTF-8: Tracker accepts only UTF-8 text.',
    });
    expect(jsonError(await jsonRpc('{"method":"Bug.get","params":[{'))).toMatchObject({ code: 100201 });
    expect(jsonError(await jsonRpc(BILLION_LAUGHS, 'text/xml')).code).toBeGreaterThan(0);
    await stillAnswers();
  });

  it('answers a 9 MB body and a megabytes-long method name with a short error', async () => {
    const big = jsonError(
      await jsonRpc(
        JSON.stringify({ method: 'Bug.search', params: [{ summary: 'a'.repeat(9 * 1024 * 1024) }], id: 1 }),
      ),
    );
    expect(big.code).toBeGreaterThan(0);
    const longName = await jsonRpc(JSON.stringify({ method: `Bug.${'x'.repeat(5_000_000)}`, params: [{}], id: 1 }));
    expect(jsonError(longName)).toMatchObject({
      code: 100302,
      message: expect.stringMatching(/^No such a method : 'Bug\.x+…'\.$/),
    });
    expect(longName.text.length).toBeLessThan(1_000);
    await stillAnswers();
  });

  it('refuses an unpaired surrogate in a parameter that fills a path or a query string, naming it', async () => {
    // JSON may escape a lone surrogate ("\\ud800"); a URL cannot carry one (encodeURIComponent throws).
    const lone = (method: string, params: string) =>
      jsonRpc(`{"method":"${method}","params":[${params}],"id":1}`).then(jsonError);
    expect(await lone('Bug.get', '{"ids":["\\ud800"]}')).toMatchObject({
      code: 32000,
      message: "The value of 'ids.0' contains a NUL character or an unpaired surrogate, which Tracker does not accept.",
    });
    expect(await lone('User.get', '{"names":"a\\udc00b"}')).toMatchObject({
      code: 32000,
      message: expect.stringContaining("'names'"),
    });
    expect(await lone('Bug.search', '{"summary":"x\\ud83d"}')).toMatchObject({
      code: 32000,
      message: expect.stringContaining("'summary'"),
    });
    await stillAnswers();
  });
});
