import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkJsonTextLimits, MAX_BODY_VALUES, MAX_DEPTH, MAX_LIST_LENGTH } from '../../shared/domain/inputLimits.ts';
import { RawJson } from '../../shared/domain/rawJson.ts';
import { RpcFault } from '../../shared/http/rpc/rpcCall.ts';
import { MAX_XML_RPC_BODY_BYTES } from '../../shared/http/rpc/xmlRpcBodyScan.ts';
import { decodeXmlRpcCall, encodeXmlRpcFault, encodeXmlRpcResponse } from '../../shared/http/rpc/xmlRpcCodec.ts';
import { TrackerError } from '../../shared/trackerError.ts';
import { PYTHON } from '../support/python.ts';

/**
 * The XML-RPC wire format: calls are read as Bugzilla 5.2 reads them, answers written as it
 * writes them (its reference responses, byte for byte), and both interoperate with Python's
 * xmlrpc.client, which python-bugzilla and bugz use. Hostile bodies get a fault, never a hang
 * or an exception of another kind.
 */
const reference = (name: string) =>
  JSON.parse(readFileSync(new URL(`../fixtures/bugzilla-5.2/${name}`, import.meta.url), 'utf8')) as {
    request: { body: string };
    response_xml: string;
  };

const KEY = 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcd';

function faultOf(work: () => unknown): { code: number; message: string } {
  try {
    work();
  } catch (error) {
    if (error instanceof RpcFault) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('no fault');
}

const decodeFault = (body: string) => faultOf(() => decodeXmlRpcCall(body));

/** A call to Bug.get whose one struct has `members` (XML) inside. */
const call = (members: string, method = 'Bug.get') =>
  `<?xml version="1.0"?><methodCall><methodName>${method}</methodName><params><param><value><struct>${members}</struct></value></param></params></methodCall>`;
const member = (name: string, value: string) => `<member><name>${name}</name><value>${value}</value></member>`;
/** The value of member `x` of a call holding only it. */
const memberValue = (value: string) => decodeXmlRpcCall(call(member('x', value))).params.x;

function python(script: string, input = ''): string {
  const run = spawnSync(PYTHON, ['-c', script], { input, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (run.status !== 0) throw new Error(`python3 failed: ${run.stderr}`);
  return run.stdout;
}

/**
 * Python's xmlrpc.client reads an XML-RPC document (a response or a call) from stdin; its values
 * come out as JSON with the types JSON lacks marked: `{dateTime}`, `{base64}`, `{double}`.
 */
const PYTHON_LOADS = `
import sys, json, base64, xmlrpc.client
def plain(v):
    if isinstance(v, xmlrpc.client.DateTime): return {'dateTime': v.value}
    if isinstance(v, xmlrpc.client.Binary): return {'base64': base64.b64encode(v.data).decode()}
    if isinstance(v, float): return {'double': v}
    if isinstance(v, dict): return {k: plain(x) for k, x in v.items()}
    if isinstance(v, list): return [plain(x) for x in v]
    return v
try:
    params, method = xmlrpc.client.loads(sys.stdin.buffer.read())
    print(json.dumps({'method': method, 'params': [plain(p) for p in params]}))
except xmlrpc.client.Fault as fault:
    print(json.dumps({'faultCode': fault.faultCode, 'faultString': fault.faultString}))
`;
const pythonLoads = (xml: string) => JSON.parse(python(PYTHON_LOADS, xml));

/** What Python's xmlrpc.client sends for `ServerProxy(...).<method>(<struct>)`. */
const pythonDumps = (method: string, struct: string, imports = '') =>
  python(
    `import sys, xmlrpc.client\n${imports}\nsys.stdout.buffer.write(xmlrpc.client.dumps((${struct},), methodname='${method}', allow_none=True).encode('utf-8'))`,
  );

describe('decodeXmlRpcCall: the reference requests', () => {
  it('reads Bugzilla 5.2 reference Bug.get calls (their API key placeholder replaced)', () => {
    for (const [name, ids] of [
      ['xmlrpc-bug-get.json', [1]],
      ['xmlrpc-fault.json', [99999999]],
    ] as const) {
      const body = reference(name).request.body.replace('<admin api key>', KEY);
      const decoded = decodeXmlRpcCall(body);
      expect(decoded.method).toBe('Bug.get');
      expect({ ...decoded.params }).toEqual({ ids, Bugzilla_api_key: KEY });
    }
  });

  it('refuses the reference body as it is stored: its placeholder is not XML', () => {
    expect(decodeFault(reference('xmlrpc-bug-get.json').request.body).code).toBe(-32700);
  });

  it('a call without params, or with empty params, has an empty struct', () => {
    for (const body of [
      '<methodCall><methodName>Bugzilla.version</methodName></methodCall>',
      '<methodCall><methodName>Bugzilla.version</methodName><params/></methodCall>',
      '<methodCall>\n  <methodName> Bugzilla.version </methodName>\n  <params>\n  </params>\n</methodCall>',
    ]) {
      const decoded = decodeXmlRpcCall(body);
      expect(decoded.method).toBe('Bugzilla.version');
      expect(Object.keys(decoded.params)).toEqual([]);
    }
  });
});

describe('decodeXmlRpcCall: values as Bugzilla reads them', () => {
  it('integers, doubles and booleans', () => {
    expect(memberValue('<int>42</int>')).toBe(42);
    expect(memberValue('<i4>-7</i4>')).toBe(-7);
    expect(memberValue('<i4>+2147483647</i4>')).toBe(2147483647);
    expect(memberValue('<i4>-2147483648</i4>')).toBe(-2147483648);
    expect(memberValue('<int>3000000000</int>')).toBe(3000000000);
    expect(memberValue('<i8>9007199254740991</i8>')).toBe(9007199254740991);
    expect(memberValue('<ex:i8 xmlns:ex="http://ws.apache.org/xmlrpc/namespaces/extensions">12</ex:i8>')).toBe(12);
    expect(Object.is(memberValue('<int>-0</int>'), 0)).toBe(true);
    expect(memberValue('<int> 5\n</int>')).toBe(5);
    expect(memberValue('<double>1.5</double>')).toBe(1.5);
    expect(memberValue('<double>-.25</double>')).toBe(-0.25);
    expect(memberValue('<double>2</double>')).toBe(2);
    expect(memberValue('<double>1e3</double>')).toBe(1000);
    expect(memberValue('<boolean>1</boolean>')).toBe(true);
    expect(memberValue('<boolean>0</boolean>')).toBe(false);
  });

  it('empty int and double are null, as Bugzilla documents ("Undefined Values"); nil is null whatever it holds', () => {
    expect(memberValue('<int></int>')).toBeNull();
    expect(memberValue('<i4/>')).toBeNull();
    expect(memberValue('<double> </double>')).toBeNull();
    expect(memberValue('<dateTime.iso8601></dateTime.iso8601>')).toBeNull();
    expect(memberValue('<nil/>')).toBeNull();
    expect(memberValue('<nil>anything</nil>')).toBeNull();
    expect(memberValue('<ex:nil xmlns:ex="http://ws.apache.org/xmlrpc/namespaces/extensions"/>')).toBeNull();
  });

  it('strings: typed or not, whitespace kept, references resolved, CDATA as it is, comments ignored', () => {
    expect(memberValue('<string>a b</string>')).toBe('a b');
    expect(memberValue('  untyped  ')).toBe('  untyped  ');
    expect(memberValue('')).toBe('');
    expect(memberValue('<string/>')).toBe('');
    expect(memberValue(' <string> padded </string>\n')).toBe(' padded ');
    expect(memberValue('<string>&lt;&amp;&gt;&quot;&apos;&#60;&#x3C;&#x1F600;</string>')).toBe('<&>"\'<<😀');
    expect(memberValue('<string><![CDATA[<b>&amp;</b>]]> and &amp;</string>')).toBe('<b>&amp;</b> and &');
    expect(memberValue('<string>a<!-- note -->b</string>')).toBe('ab');
    expect(memberValue('<string>&#13;\r\n|\r|\t</string>')).toBe('\r\n|\n|\t');
    expect(memberValue('<string><![CDATA[<!DOCTYPE x [<!ENTITY a "b">]>]]></string>')).toBe(
      '<!DOCTYPE x [<!ENTITY a "b">]>',
    );
  });

  it('dateTime.iso8601 in the forms clients send becomes the REST API time text, in UTC', () => {
    expect(memberValue('<dateTime.iso8601>20250304T05:06:07</dateTime.iso8601>')).toBe('2025-03-04T05:06:07Z');
    expect(memberValue('<dateTime.iso8601>2025-03-04T05:06:07</dateTime.iso8601>')).toBe('2025-03-04T05:06:07Z');
    expect(memberValue('<dateTime.iso8601>20250304T050607</dateTime.iso8601>')).toBe('2025-03-04T05:06:07Z');
    expect(memberValue('<dateTime.iso8601>2025-03-04T05:06:07Z</dateTime.iso8601>')).toBe('2025-03-04T05:06:07Z');
    expect(memberValue('<dateTime.iso8601>2025-03-04T05:06:07.789z</dateTime.iso8601>')).toBe('2025-03-04T05:06:07Z');
    expect(memberValue('<dateTime.iso8601>20250304T05:06:07+02:00</dateTime.iso8601>')).toBe('2025-03-04T03:06:07Z');
    expect(memberValue('<dateTime.iso8601>20250304T23:30:00-0130</dateTime.iso8601>')).toBe('2025-03-05T01:00:00Z');
    expect(memberValue('<dateTime.iso8601>20250101T00:30:00+01</dateTime.iso8601>')).toBe('2024-12-31T23:30:00Z');
    expect(memberValue('<dateTime.iso8601>20240229T12:00:00</dateTime.iso8601>')).toBe('2024-02-29T12:00:00Z');
    expect(memberValue('<dateTime.iso8601>00050101T00:00:00</dateTime.iso8601>')).toBe('0005-01-01T00:00:00Z');
  });

  it('base64 stays base64, without the line breaks clients put in it', () => {
    expect(memberValue('<base64>aGVs\nbG8g\r\nd29y bGQ=\n</base64>')).toBe('aGVsbG8gd29ybGQ=');
    expect(memberValue('<base64></base64>')).toBe('');
  });

  it('arrays and structs nest; an array without <data> is empty; a repeated member keeps its last value', () => {
    const params = decodeXmlRpcCall(
      call(
        member(
          'list',
          '<array><data><value><int>1</int></value><value>two</value><value><array><data/></array></value></data></array>',
        ) +
          member('bare', '<array/>') +
          member(
            'nested',
            `<struct>${member('inner', `<struct>${member('deep', '<boolean>1</boolean>')}</struct>`)}</struct>`,
          ) +
          member('twice', '<int>1</int>') +
          member('twice', '<int>2</int>'),
      ),
    ).params;
    expect(JSON.parse(JSON.stringify(params))).toEqual({
      list: [1, 'two', []],
      bare: [],
      nested: { inner: { deep: true } },
      twice: 2,
    });
  });

  it('structs have no prototype: `__proto__` and `constructor` members are plain keys, as in JSON.parse', () => {
    const params = decodeXmlRpcCall(
      call(
        member('__proto__', `<struct>${member('polluted', '<boolean>1</boolean>')}</struct>`) +
          member('constructor', '<string>c</string>') +
          member('nested', `<struct>${member('__proto__', '<string>p</string>')}</struct>`),
      ),
    ).params;
    expect(Object.getPrototypeOf(params)).toBeNull();
    expect(Object.keys(params)).toEqual(['__proto__', 'constructor', 'nested']);
    expect(Object.getOwnPropertyDescriptor(params, '__proto__')?.value).toEqual({ polluted: true });
    expect(params.constructor).toBe('c');
    expect(Object.getOwnPropertyDescriptor(params.nested, '__proto__')?.value).toBe('p');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    // JSON carries them the same way: the REST handler parses them into own keys too.
    expect(JSON.parse(JSON.stringify(params))).toEqual(
      JSON.parse('{"__proto__":{"polluted":true},"constructor":"c","nested":{"__proto__":"p"}}'),
    );
  });
});

describe('decodeXmlRpcCall: what Bugzilla refuses', () => {
  it('values their type does not allow: xmlrpc_invalid_value (-32600), as Bugzilla words it', () => {
    expect(decodeFault(call(member('x', '<int>12abc</int>')))).toEqual({
      code: -32600,
      message: '"12abc" is not a valid value for a <int> field. (See the XML-RPC specification for details.)',
    });
    for (const value of [
      '<int>9007199254740993</int>',
      '<int>1e3</int>',
      '<i8>-9007199254740992</i8>',
      '<i4>2147483648</i4>',
      '<i4>-2147483649</i4>',
      `<int>${'9'.repeat(400)}</int>`,
      '<double>1.5.2</double>',
      '<double>1e999</double>',
      '<double>NaN</double>',
      '<double>inf</double>',
      '<boolean>true</boolean>',
      '<boolean>2</boolean>',
      '<boolean></boolean>',
      '<dateTime.iso8601>yesterday</dateTime.iso8601>',
      '<dateTime.iso8601>2025-0304T05:06:07</dateTime.iso8601>',
      '<dateTime.iso8601>20250304 05:06:07</dateTime.iso8601>',
      '<base64>@@@@</base64>',
      '<base64>abcde</base64>',
      '<base64>ab=c</base64>',
    ])
      expect(decodeFault(call(member('x', value))).code, value).toBe(-32600);
  });

  it('a long value is quoted short in the message', () => {
    const { message } = decodeFault(call(member('x', `<int>${'9'.repeat(100_000)}</int>`)));
    expect(message.length).toBeLessThan(200);
  });

  it('a time of the right shape that is no real instant is illegal_date (56)', () => {
    for (const time of [
      '20250230T00:00:00',
      '20250101T24:00:00',
      '20250101T00:60:00',
      '00000101T00:00:00',
      '20251301T00:00:00',
    ])
      expect(decodeFault(call(member('x', `<dateTime.iso8601>${time}</dateTime.iso8601>`)))).toEqual({
        code: 56,
        message: `'${time}' is not a legal date.`,
      });
  });

  it('a call that is not one struct of named parameters', () => {
    for (const [params, says] of [
      ['<param><value><array><data/></array></value></param>', 'a <array>'],
      ['<param><value>text</value></param>', 'a string'],
      ['<param><value><int>1</int></value></param>', 'a <int>'],
      ['<param><value><nil/></value></param>', 'a <nil>'],
      ['<param><value><struct/></value></param><param><value><struct/></value></param>', '2 parameters'],
    ]) {
      const fault = decodeFault(`<methodCall><methodName>Bug.get</methodName><params>${params}</params></methodCall>`);
      expect(fault.code).toBe(-32600);
      expect(fault.message).toContain(says);
    }
  });

  it('a methodCall that is not one: names missing or repeated, stray elements, text where elements belong', () => {
    for (const body of [
      '<methodCall><methodName>A.b</methodName><methodName>C.d</methodName></methodCall>',
      '<methodCall><params/></methodCall>',
      '<methodCall><methodName></methodName></methodCall>',
      '<methodCall><methodName>Bug get</methodName></methodCall>',
      '<methodCall><methodName>A.<b/></methodName></methodCall>',
      '<methodCall><methodName>A.b</methodName><params/><params/></methodCall>',
      '<methodCall><methodName>A.b</methodName><extra/></methodCall>',
      '<methodResponse><params/></methodResponse>',
      '<methodCall><methodName>A.b</methodName>stray text</methodCall>',
      call('<notamember/>'),
      call('<member><name>a</name></member>'),
      call('<member><name>a</name><value>1</value><value>2</value></member>'),
      call(member('x', '<string>a</string><string>b</string>')),
      call(member('x', 'text<string>b</string>')),
      call(member('x', '<string><b>bold</b></string>')),
      call(member('x', '<array><data/><data/></array>')),
      call(member('x', '<array><data><int>1</int></data></array>')),
      call(member('x', '<float>1</float>')),
      call(member('x', '<ex:serializable xmlns:ex="e">rO0=</ex:serializable>')),
    ])
      expect(decodeFault(body).code, body).toBe(-32600);
  });

  it('XML that is not well-formed: -32700', () => {
    for (const body of [
      '',
      'not xml',
      '<methodCall><methodName>A.b</methodName>',
      '<methodCall><methodName>A.b</methodName><params><param><value><struct>',
      '<methodCall><methodName>A.b</methodName></methodCall><methodCall/>',
      '<methodCall><methodName>A.b</methodName></methodCall>trailing',
      '<methodCall><methodName>A.b</methodName></wrong>',
      '<methodCall><methodName>A.b</methodName><!-- unterminated',
      '<methodCall><methodName>A.b</methodName><params',
      call(member('x', '<string>a & b</string>')),
      call(member('x', '<string>&nbsp;</string>')),
      call(member('x', '<string>&#0;</string>')),
      call(member('x', '<string>&#xD800;</string>')),
      call(member('x', '<string>&#x110000;</string>')),
      call(member('x', '<string>\u0001</string>')),
      call(member('x', '<string>\uFFFE</string>')),
      call(member('x', '<string>\uD800</string>')),
      call(member('__proto__', '<__proto__/>')),
    ])
      expect(decodeFault(body).code, JSON.stringify(body)).toBe(-32700);
  });

  it('a request declaring an encoding other than UTF-8 is read only when it is plain ASCII', () => {
    const latin = (text: string) =>
      `<?xml version="1.0" encoding="ISO-8859-1"?><methodCall><methodName>A.b</methodName><params><param><value><struct>${member('x', text)}</struct></value></param></params></methodCall>`;
    expect(decodeXmlRpcCall(latin('plain')).params.x).toBe('plain');
    expect(decodeFault(latin('caf\u00e9')).code).toBe(-32701);
    expect(decodeXmlRpcCall(`\uFEFF${call(member('x', 'caf\u00e9'))}`).params.x).toBe('caf\u00e9');
  });
});

describe('decodeXmlRpcCall: hostile bodies', () => {
  it('billion laughs: refused for its DOCTYPE before any parser sees it', () => {
    const laughs = `<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 ${Array.from({ length: 9 }, (_, level) => `<!ENTITY lol${level + 1} "${`&lol${level || ''};`.repeat(10)}">`).join('\n ')}
]>
<methodCall><methodName>Bug.get</methodName><params><param><value><struct>${member('x', '<string>&lol9;</string>')}</struct></value></param></params></methodCall>`;
    const fault = decodeFault(laughs);
    expect(fault.code).toBe(-32600);
    expect(fault.message).toContain('DOCTYPE declaration');
  });

  it('external entities: refused, and nothing of the file is read', () => {
    for (const doctype of [
      '<!DOCTYPE methodCall [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>',
      '<!DOCTYPE methodCall SYSTEM "http://127.0.0.1:1/evil.dtd">',
      '<!DOCTYPE methodCall [<!ENTITY % remote SYSTEM "http://127.0.0.1:1/x"> %remote;]>',
    ]) {
      const fault = decodeFault(`<?xml version="1.0"?>${doctype}${call(member('x', '<string>&xxe;</string>'))}`);
      expect(fault.code).toBe(-32600);
      expect(fault.message).toContain('DOCTYPE');
      expect(fault.message).not.toContain('root:');
    }
    // An entity declared nowhere is no entity at all.
    expect(decodeFault(call(member('x', '<string>&xxe;</string>')))).toMatchObject({ code: -32700 });
    expect(decodeFault(`<!ENTITY a "b">${call('')}`).message).toContain('ENTITY declaration');
  });

  it('10,000-deep nesting, of structs, arrays or bare elements', () => {
    const deepStructs = call(member('a', '<struct><member><name>a</name><value>'.repeat(10_000)));
    const deepArrays = call(member('a', '<array><data><value>'.repeat(10_000)));
    const deepElements = `<methodCall>${'<x>'.repeat(10_000)}${'</x>'.repeat(10_000)}</methodCall>`;
    for (const body of [deepStructs, deepArrays, deepElements])
      expect(decodeFault(body)).toEqual({
        code: 32000,
        message: `The request body is nested too deeply (at most ${MAX_DEPTH} levels).`,
      });
  });

  it('nesting is limited as a JSON body is: MAX_DEPTH levels below the call struct, and no more', () => {
    const nestedXml = (levels: number) =>
      call(
        member('a', `${'<array><data><value>'.repeat(levels)}<int>1</int>${'</value></data></array>'.repeat(levels)}`),
      );
    const nestedJson = (levels: number) => `{"a":${'['.repeat(levels)}1${']'.repeat(levels)}}`;
    expect(() => checkJsonTextLimits(nestedJson(MAX_DEPTH))).not.toThrow();
    expect(() => checkJsonTextLimits(nestedJson(MAX_DEPTH + 1))).toThrow(TrackerError);
    expect(JSON.stringify(decodeXmlRpcCall(nestedXml(MAX_DEPTH)).params)).toBe(nestedJson(MAX_DEPTH));
    expect(decodeFault(nestedXml(MAX_DEPTH + 1)).code).toBe(32000);
    const nestedStructs = (levels: number) =>
      call(`${`<member><name>a</name><value><struct>`.repeat(levels)}${'</struct></value></member>'.repeat(levels)}`);
    expect(() => decodeXmlRpcCall(nestedStructs(MAX_DEPTH))).not.toThrow();
    expect(decodeFault(nestedStructs(MAX_DEPTH + 1)).code).toBe(32000);
  });

  it('a body over the size a request can carry (a 9 MB one)', () => {
    const huge = call(member('comment', `<string>${'x'.repeat(9 * 1024 * 1024)}</string>`));
    expect(decodeFault(huge)).toEqual({
      code: 32000,
      message: `The request body is larger than ${MAX_XML_RPC_BODY_BYTES} bytes, the most a request to Tracker can carry.`,
    });
    // Counted in UTF-8 bytes: three million three-byte characters are 9 MB.
    expect(decodeFault(call(member('comment', `<string>${'€'.repeat(3_000_000)}</string>`))).code).toBe(32000);
  });

  it('too many values in all, or in one list or struct, as for JSON bodies', () => {
    const list = (count: number) => `<array><data>${'<value><int>1</int></value>'.repeat(count)}</data></array>`;
    expect((decodeXmlRpcCall(call(member('ids', list(MAX_LIST_LENGTH)))).params.ids as unknown[]).length).toBe(
      MAX_LIST_LENGTH,
    );
    expect(decodeFault(call(member('ids', list(MAX_LIST_LENGTH + 1)))).message).toContain(
      `more than ${MAX_LIST_LENGTH} entries`,
    );
    const members = (count: number) => Array.from({ length: count }, (_, n) => member(`m${n}`, '1')).join('');
    expect(decodeFault(call(members(MAX_LIST_LENGTH + 1))).message).toContain(`more than ${MAX_LIST_LENGTH} entries`);
    const many = call(Array.from({ length: 6 }, (_, n) => member(`l${n}`, list(9_000))).join(''));
    expect(decodeFault(many)).toEqual({
      code: 32000,
      message: `The request body has more than ${MAX_BODY_VALUES} values in all.`,
    });
    expect(decodeFault(call('<a/>'.repeat(4 * MAX_BODY_VALUES + 8))).code).toBe(32000);
  });

  it('mangled calls: every one is read or refused with a fault, never another exception', () => {
    const sample = call(
      member('ids', '<array><data><value><int>1</int></value><value><i4>2</i4></value></data></array>') +
        member('comment', `<struct>${member('body', '<string>a &amp; b <![CDATA[<x>]]></string>')}</struct>`) +
        member('deadline', '<dateTime.iso8601>20250101T00:00:00</dateTime.iso8601>') +
        member('data', '<base64>aGk=</base64>') +
        member('none', '<nil/>') +
        member('hours', '<double>1.5</double>'),
      'Bug.update',
    );
    const pieces = ['<', '>', '/', '&', ';', '"', '!', ']]>', '<!DOCTYPE a>', '<![CDATA[', '<!--', '&#0;', '&#x41;'];
    pieces.push(
      '<value>',
      '</value>',
      '<struct>',
      '</member>',
      '<name>__proto__</name>',
      '<constructor/>',
      '<__proto__>',
    );
    pieces.push('x', ' ', '\u0000', '\uD800', '😀', ':', '<ex:nil/>', '<i8>', '<array>', '<data>');
    let seed = 21;
    const random = (below: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % below;
    };
    const outcomes = new Set<string>();
    for (let attempt = 0; attempt < 3000; attempt++) {
      let body = sample;
      for (let edit = random(4); edit >= 0; edit--) {
        const at = random(body.length);
        const piece = pieces[random(pieces.length)]!;
        if (random(2) === 0) body = body.slice(0, at) + piece + body.slice(at);
        else body = body.slice(0, at) + body.slice(at + 1 + random(10));
      }
      try {
        decodeXmlRpcCall(body);
        outcomes.add('read');
      } catch (error) {
        if (!(error instanceof RpcFault)) throw new Error(`${error} for ${JSON.stringify(body)}`);
        outcomes.add(String(error.code));
      }
    }
    expect([...outcomes].sort()).toEqual(['-32600', '-32700', 'read']);
  });

  it('unclosed tags and truncated bodies', () => {
    const whole = call(member('ids', '<array><data><value><int>1</int></value></data></array>'));
    for (let cut = 1; cut < whole.length; cut += 7) expect(decodeFault(whole.slice(0, cut)).code).toBeLessThan(0);
  });
});

describe('encodeXmlRpcResponse', () => {
  it('writes Bugzilla 5.2 reference Bug.get answer byte for byte from the same data in REST form', () => {
    const { response_xml } = reference('xmlrpc-bug-get.json');
    // The reference answer's data, as the REST API has it: times as REST time text, in the same member order.
    const restForm = JSON.parse(
      python(
        `
import sys, json, xmlrpc.client
def rest(v):
    if isinstance(v, xmlrpc.client.DateTime):
        s = v.value
        return s[0:4] + '-' + s[4:6] + '-' + s[6:8] + 'T' + s[9:] + 'Z'
    if isinstance(v, dict): return {k: rest(x) for k, x in v.items()}
    if isinstance(v, list): return [rest(x) for x in v]
    return v
(result,), _ = xmlrpc.client.loads(sys.stdin.buffer.read())
print(json.dumps(rest(result)))
`,
        response_xml,
      ),
    );
    expect(restForm.bugs[0].last_change_time).toBe('2026-11-24T21:48:24Z');
    expect(restForm.bugs[0].actual_time).toBe(0);
    expect(encodeXmlRpcResponse(restForm)).toBe(response_xml);
  });

  it('leaves out what is null, as Bugzilla strips undefined values: REST Bug.get has dupe_of and deadline null', () => {
    const rest = JSON.parse(
      readFileSync(new URL('../fixtures/bugzilla-5.2/bug-all-fields.json', import.meta.url), 'utf8'),
    );
    expect(rest.bugs[0].dupe_of).toBeNull();
    const xml = encodeXmlRpcResponse(rest);
    expect(xml).not.toContain('<name>dupe_of</name>');
    expect(xml).not.toContain('<name>deadline</name>');
    expect(xml).toContain(
      '<member><name>creation_time</name><value><dateTime.iso8601>20261122T08:24:31</dateTime.iso8601></value></member>',
    );
    expect(xml).toContain('<member><name>estimated_time</name><value><double>0.00</double></value></member>');
    expect(xml).toContain('<member><name>is_open</name><value><boolean>0</boolean></value></member>');
    expect(xml).toContain('<member><name>id</name><value><int>1</int></value></member>');
    expect(encodeXmlRpcResponse({ list: [1, null, 2, undefined], gone: undefined, nan: Number.NaN })).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><methodResponse><params><param><value><struct><member><name>list</name><value><array><data><value><int>1</int></value><value><int>2</int></value></data></array></value></member></struct></value></param></params></methodResponse>',
    );
    expect(encodeXmlRpcResponse(null)).toContain('<param><value><nil/></value></param>');
  });

  it('types by member name only the values Bugzilla types so', () => {
    const xml = encodeXmlRpcResponse({
      deadline: '2026-12-01',
      time: 'not a time',
      when: '2025-03-04T05:06:07Z',
      cf_due: '2025-03-04T05:06:07Z',
      cf_text: 'plain',
      data: 'aGVsbG8=',
      description: 'aGVsbG8=',
      attachment: { data: 'not base64!' },
      remaining_time: 1.5,
      work_time: 2,
      ratio: 0.25,
      big: 2 ** 60,
      raw: new RawJson('{"id":7,"creation_time":"2025-01-02T03:04:05Z"}'),
    });
    for (const expected of [
      '<name>deadline</name><value><string>2026-12-01</string>',
      '<name>time</name><value><string>not a time</string>',
      '<name>when</name><value><dateTime.iso8601>20250304T05:06:07</dateTime.iso8601>',
      '<name>cf_due</name><value><dateTime.iso8601>20250304T05:06:07</dateTime.iso8601>',
      '<name>cf_text</name><value><string>plain</string>',
      '<name>data</name><value><base64>aGVsbG8=</base64>',
      '<name>description</name><value><string>aGVsbG8=</string>',
      '<name>data</name><value><string>not base64!</string>',
      '<name>remaining_time</name><value><double>1.50</double>',
      '<name>work_time</name><value><int>2</int>',
      '<name>ratio</name><value><double>0.25</double>',
      `<name>big</name><value><double>${2 ** 60}</double>`,
      '<name>raw</name><value><struct><member><name>id</name><value><int>7</int></value></member><member><name>creation_time</name><value><dateTime.iso8601>20250102T03:04:05</dateTime.iso8601>',
    ])
      expect(xml).toContain(expected);
  });

  it('writes faults as Bugzilla does, byte for byte', () => {
    expect(encodeXmlRpcFault(new RpcFault(101, 'Bug #99999999 does not exist.'))).toBe(
      reference('xmlrpc-fault.json').response_xml,
    );
  });
});

describe("interoperability with Python's xmlrpc.client", () => {
  it('Python reads every kind of value Tracker writes', () => {
    const answer = {
      bugs: [
        {
          id: 7,
          summary: 'a <b> & "c" ]]> \u0001\u0008\u000B\u000C\u001F\uFFFE\uFFFF\uD800 gone, tab\tnewline\nreturn\r kept',
          creation_time: '2026-11-24T21:48:24Z',
          last_change_time: '2026-11-24T21:48:25Z',
          actual_time: 0,
          estimated_time: 2.5,
          is_open: true,
          is_confirmed: false,
          dupe_of: null,
          alias: [],
          cc_detail: [{ id: 1, real_name: 'Zoë 山田 😀 \u202Eevil', email: 'z@example.com' }],
          'ünïcode <&> name': 'value',
          empty: '',
          negative: -2147483648,
          large: 9007199254740991,
          ratio: 1 / 3,
          flags: [{ creation_date: '2025-01-01T00:00:00Z', modification_date: '2025-01-02T00:00:00Z', status: '+' }],
        },
      ],
      attachments: { 3: { data: Buffer.from([0, 1, 2, 255, 254, 10, 13]).toString('base64'), size: 7 } },
      nothing: {},
    };
    const read = pythonLoads(encodeXmlRpcResponse(answer));
    expect(read.method).toBeNull();
    expect(read.params).toEqual([
      {
        bugs: [
          {
            id: 7,
            summary: 'a <b> & "c" ]]>  gone, tab\tnewline\nreturn\r kept',
            creation_time: { dateTime: '20261124T21:48:24' },
            last_change_time: { dateTime: '20261124T21:48:25' },
            actual_time: { double: 0 },
            estimated_time: { double: 2.5 },
            is_open: true,
            is_confirmed: false,
            alias: [],
            cc_detail: [{ id: 1, real_name: 'Zoë 山田 😀 \u202Eevil', email: 'z@example.com' }],
            'ünïcode <&> name': 'value',
            empty: '',
            negative: -2147483648,
            large: 9007199254740991,
            ratio: { double: 1 / 3 },
            flags: [
              {
                creation_date: { dateTime: '20250101T00:00:00' },
                modification_date: { dateTime: '20250102T00:00:00' },
                status: '+',
              },
            ],
          },
        ],
        attachments: { 3: { data: { base64: 'AAEC//4KDQ==' }, size: 7 } },
        nothing: {},
      },
    ]);
  });

  it('Python reads Tracker faults as Fault(faultCode, faultString)', () => {
    expect(pythonLoads(encodeXmlRpcFault(new RpcFault(-32600, 'Bad <value> & "more"\u0001')))).toEqual({
      faultCode: -32600,
      faultString: 'Bad <value> & "more"',
    });
  });

  it('Tracker reads what Python sends: times, binary, None, nesting, unicode, markup characters', () => {
    const sent = pythonDumps(
      'Bug.add_attachment',
      String.raw`{
        'ids': [1, 2], 'is_patch': True, 'is_private': False, 'hours': 1.25, 'minus': -3,
        'data': xmlrpc.client.Binary(bytes(range(256)) * 4),
        'deadline': xmlrpc.client.DateTime('20250304T05:06:07'),
        'when': datetime.datetime(2025, 12, 31, 23, 59, 59),
        'nothing': None,
        'comment': 'Zoë 山田 😀 <b>&amp;</b> ]]> "quoted" \'single\' tab\there\nnewline',
        'nested': {'deep': {'deeper': [{'k': 'v'}, [], {}]}},
        'unicode ключ': 'значение',
        '__proto__': {'x': 1},
        'empty': '',
      }`,
      'import datetime',
    );
    expect(sent).toContain('<nil/>');
    const decoded = decodeXmlRpcCall(sent);
    expect(decoded.method).toBe('Bug.add_attachment');
    const received = JSON.parse(JSON.stringify(decoded.params));
    expect(Object.getOwnPropertyDescriptor(received, '__proto__')?.value).toEqual({ x: 1 });
    Reflect.deleteProperty(received, '__proto__');
    expect(received).toEqual({
      ids: [1, 2],
      is_patch: true,
      is_private: false,
      hours: 1.25,
      minus: -3,
      data: Buffer.from(Array.from({ length: 4 }, () => Array.from({ length: 256 }, (_, n) => n)).flat()).toString(
        'base64',
      ),
      deadline: '2025-03-04T05:06:07Z',
      when: '2025-12-31T23:59:59Z',
      nothing: null,
      comment: 'Zoë 山田 😀 <b>&amp;</b> ]]> "quoted" \'single\' tab\there\nnewline',
      nested: { deep: { deeper: [{ k: 'v' }, [], {}] } },
      'unicode ключ': 'значение',
      empty: '',
    });
    expect(Object.getOwnPropertyDescriptor(decoded.params, '__proto__')?.value).toEqual({ x: 1 });
  });

  it("a control character Python writes as it is is not XML: a fault, as Python's own parser gives", () => {
    const sent = pythonDumps('Bug.add_comment', String.raw`{'comment': 'bell \x07'}`);
    expect(decodeFault(sent).code).toBe(-32700);
    expect(
      python(
        `
import sys, xmlrpc.client
try:
    xmlrpc.client.loads(sys.stdin.buffer.read())
    print('read')
except Exception as error:
    print(type(error).__name__)
`,
        sent,
      ).trim(),
    ).toBe('ExpatError');
  });

  it('the largest attachment Tracker takes, as Python sends it, fits in a request', () => {
    const sent = pythonDumps(
      'Bug.add_attachment',
      "{'ids': [1], 'data': xmlrpc.client.Binary(b'\\x07' * (4400 * 1024))}",
    );
    expect(Buffer.byteLength(sent)).toBeLessThan(MAX_XML_RPC_BODY_BYTES);
    const { data } = decodeXmlRpcCall(sent).params as { data: string };
    expect(Buffer.from(data, 'base64').length).toBe(4400 * 1024);
  });

  it('round trip: what Tracker writes, Python reads and sends back, Tracker reads as it was', () => {
    const original = {
      summary: 'x < y && y > z; 😀; \t\r\n',
      creation_time: '2025-03-04T05:06:07Z',
      data: Buffer.from('binary\u0000\u00ff').toString('base64'),
      estimated_time: 3,
      list: [1, 'two', true, { three: 3.5 }],
    };
    const echoed = python(
      `
import sys, xmlrpc.client
(result,), _ = xmlrpc.client.loads(sys.stdin.buffer.read())
sys.stdout.buffer.write(xmlrpc.client.dumps((result,), methodname='Echo.back').encode('utf-8'))
`,
      encodeXmlRpcResponse(original),
    );
    // Python writes the carriage return as it is, and XML reads a CR LF as one line feed.
    expect(JSON.parse(JSON.stringify(decodeXmlRpcCall(echoed).params))).toEqual({
      ...original,
      summary: 'x < y && y > z; 😀; \t\n',
    });
  });
});
