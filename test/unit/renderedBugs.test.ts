import { describe, expect, it } from 'vitest';
import { RawJson, stringifyJson } from '../../shared/domain/rawJson.ts';
import { RenderedBugs } from '../../shared/domain/search/page/renderedBugs.ts';

describe('rendered bugs of a search instance', () => {
  it('reuses a text only for the same revision and variant', () => {
    const rendered = new RenderedBugs(10_000);
    expect(rendered.useStamp(1, 1)).toBe(true);
    rendered.put(7, 3, 'default|100', '{"id":7}');
    expect(rendered.get(7, 3, 'default|100')).toBe('{"id":7}');
    expect(rendered.get(7, 4, 'default|100')).toBeUndefined();
    expect(rendered.get(7, 3, 'default|000')).toBeUndefined();
    // A newer revision replaces every variant of the older one; an older one never comes back.
    rendered.put(7, 4, 'default|000', '{"id":7,"v":4}');
    rendered.put(7, 3, 'default|100', '{"id":7}');
    expect(rendered.get(7, 3, 'default|100')).toBeUndefined();
    expect(rendered.get(7, 4, 'default|000')).toBe('{"id":7,"v":4}');
  });

  it('starts over when the catalogue or user counts move, and refuses a request that read an older stamp', () => {
    const rendered = new RenderedBugs(10_000);
    rendered.useStamp(5, 9);
    rendered.put(1, 1, 'v', '{"product":"Old name"}');
    expect(rendered.useStamp(6, 9)).toBe(true);
    expect(rendered.get(1, 1, 'v')).toBeUndefined();
    expect(rendered.useStamp(6, 8)).toBe(false);
    expect(rendered.useStamp(5, 9)).toBe(false);
    expect(rendered.useStamp(6, 10)).toBe(true);
  });

  it('keeps at most its capacity in characters, dropping the bugs kept longest ago', () => {
    const rendered = new RenderedBugs(100);
    rendered.useStamp(0, 0);
    for (let id = 1; id <= 20; id++) rendered.put(id, 1, 'v', `{"id":${String(id).padStart(8, '0')}}`);
    expect(rendered.size).toBeLessThanOrEqual(100);
    expect(rendered.get(1, 1, 'v')).toBeUndefined();
    expect(rendered.get(20, 1, 'v')).toBeDefined();
    for (let variant = 0; variant < 6; variant++) rendered.put(20, 1, `v${variant}`, '{}');
    expect(rendered.get(20, 1, 'v')).toBeUndefined();
    expect(rendered.get(20, 1, 'v5')).toBe('{}');
  });
});

describe('raw JSON in a response', () => {
  it('is written in place, among ordinary values', () => {
    const text = stringifyJson({
      bugs: [new RawJson('{"id":1,"summary":"a \\"quoted\\" word"}'), new RawJson('{}')],
      total: 2,
    });
    expect(JSON.parse(text)).toEqual({ bugs: [{ id: 1, summary: 'a "quoted" word' }, {}], total: 2 });
  });

  it('cannot be forged by text that looks like its marker', () => {
    const text = stringifyJson({
      summary: '\u0000raw-json-00000000-0000-0000-0000-000000000000\u0000',
      bugs: [new RawJson('[1]')],
    });
    expect(JSON.parse(text)).toEqual({
      summary: '\u0000raw-json-00000000-0000-0000-0000-000000000000\u0000',
      bugs: [[1]],
    });
  });

  it('still serialises outside stringifyJson, by parsing back', () => {
    expect(JSON.stringify({ a: new RawJson('{"b":2}') })).toBe('{"a":{"b":2}}');
  });
});
