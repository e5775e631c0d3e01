import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  EVENT_ID_HEADER,
  SIGNATURE_HEADER,
  TIMESTAMP_HEADER,
  verifyWebhook,
  webhookHeaders,
  webhookSignature,
} from '../../shared/domain/notification/webhookSignature.ts';

/** Webhook deliveries signed with HMAC-SHA256 over the timestamp and the exact body, and checked. */
const BODY = '{"id":"1-2-bug-changed-0"}';
const SECRET = 'whsec_test';
const NOW = new Date('2023-11-14T22:13:20Z'); // Unix 1700000000

const delivered = (body: string | Uint8Array, headers: Record<string, string>) => ({
  body,
  signature: headers[SIGNATURE_HEADER],
  timestamp: headers[TIMESTAMP_HEADER],
});

describe('signing a delivery', () => {
  it('is HMAC-SHA256 of "<timestamp>.<body>", hex, after sha256= (checked against openssl)', () => {
    // printf '%s' '1700000000.{"id":"1-2-bug-changed-0"}' | openssl dgst -sha256 -hmac whsec_test
    expect(webhookSignature(BODY, SECRET, 1_700_000_000)).toBe(
      'sha256=ccda75f360469f34b38e5524421f081e8f92a07e5b5b61d36686dc79d3dda350',
    );
    expect(webhookSignature(Buffer.from(BODY), SECRET, 1_700_000_000)).toBe(
      webhookSignature(BODY, SECRET, 1_700_000_000),
    );
  });

  it('sends the signature, the timestamp and the event id as headers, one signature per secret', () => {
    const headers = webhookHeaders(BODY, ['new-secret', SECRET], NOW, '1-2-bug-changed-0');
    expect(headers[TIMESTAMP_HEADER]).toBe('1700000000');
    expect(headers[EVENT_ID_HEADER]).toBe('1-2-bug-changed-0');
    expect(headers['Content-Type']).toBe('application/json');
    expect(headers[SIGNATURE_HEADER]!.split(', ')).toEqual([
      webhookSignature(BODY, 'new-secret', 1_700_000_000),
      webhookSignature(BODY, SECRET, 1_700_000_000),
    ]);
  });

  it('refuses to sign without a secret', () => {
    expect(() => webhookSignature(BODY, '', 1)).toThrow(RangeError);
    expect(() => webhookHeaders(BODY, [], NOW, 'x')).toThrow(RangeError);
    expect(() => webhookSignature(BODY, SECRET, -1)).toThrow(RangeError);
  });
});

describe('verifying a delivery', () => {
  const headers = webhookHeaders(BODY, SECRET, NOW, 'id');

  it('accepts what was signed, with either secret while one replaces the other', () => {
    expect(verifyWebhook(delivered(BODY, headers), SECRET, NOW)).toEqual({ valid: true, timestamp: 1_700_000_000 });
    expect(verifyWebhook(delivered(BODY, headers), ['rotated', SECRET], NOW).valid).toBe(true);
    const both = webhookHeaders(BODY, ['rotated', SECRET], NOW, 'id');
    expect(verifyWebhook(delivered(BODY, both), 'rotated', NOW).valid).toBe(true);
  });

  it('refuses a changed body, another secret, a changed timestamp', () => {
    expect(verifyWebhook(delivered(`${BODY} `, headers), SECRET, NOW)).toEqual({ valid: false, reason: 'mismatch' });
    expect(verifyWebhook(delivered(BODY, headers), 'other', NOW)).toEqual({ valid: false, reason: 'mismatch' });
    const shifted = { ...delivered(BODY, headers), timestamp: '1700000001' };
    expect(verifyWebhook(shifted, SECRET, NOW)).toEqual({ valid: false, reason: 'mismatch' });
  });

  it('refuses a delivery older or newer than the tolerance: a replay', () => {
    const later = new Date(NOW.getTime() + 301_000);
    expect(verifyWebhook(delivered(BODY, headers), SECRET, later)).toEqual({ valid: false, reason: 'stale' });
    const earlier = new Date(NOW.getTime() - 301_000);
    expect(verifyWebhook(delivered(BODY, headers), SECRET, earlier)).toEqual({ valid: false, reason: 'stale' });
    expect(verifyWebhook(delivered(BODY, headers), SECRET, new Date(NOW.getTime() + 299_000)).valid).toBe(true);
    expect(verifyWebhook(delivered(BODY, headers), SECRET, later, 600).valid).toBe(true);
  });

  it('refuses missing and malformed headers', () => {
    const refused = (reason: string) => ({ valid: false, reason });
    expect(verifyWebhook({ body: BODY, signature: undefined, timestamp: '1' }, SECRET, NOW)).toEqual(
      refused('missing'),
    );
    expect(verifyWebhook({ ...delivered(BODY, headers), timestamp: 'soon' }, SECRET, NOW)).toEqual(
      refused('malformed'),
    );
    expect(verifyWebhook({ ...delivered(BODY, headers), signature: 'md5=abc' }, SECRET, NOW)).toEqual(
      refused('malformed'),
    );
    expect(verifyWebhook({ ...delivered(BODY, headers), signature: 'sha256=zz' }, SECRET, NOW)).toEqual(
      refused('malformed'),
    );
  });

  it('accepts any body it signed and refuses it once any byte changes', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 1, maxLength: 200 }),
        fc.nat(),
        fc.integer({ min: 1, max: 255 }),
        (body, at, flip) => {
          const signed = webhookHeaders(body, SECRET, NOW, 'id');
          expect(verifyWebhook(delivered(body, signed), SECRET, NOW).valid).toBe(true);
          const tampered = Uint8Array.from(body);
          tampered[at % body.length] ^= flip;
          expect(verifyWebhook(delivered(tampered, signed), SECRET, NOW)).toEqual({ valid: false, reason: 'mismatch' });
        },
      ),
    );
  });
});

describe('the verification snippet in docs/events.md', () => {
  const doc = readFileSync(join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'docs', 'events.md'), 'utf8');

  it('accepts a genuine delivery and refuses a tampered or stale one', async () => {
    const snippet = /```js\n([\s\S]*?)```/.exec(doc)![1]!;
    const directory = mkdtempSync(join(tmpdir(), 'tracker-events-'));
    const file = join(directory, 'verify.mjs');
    writeFileSync(file, snippet);
    const { isGenuine } = (await import(pathToFileURL(file).href)) as {
      isGenuine(body: string, headers: Record<string, string>, secret: string): boolean;
    };
    rmSync(directory, { recursive: true, force: true });
    const now = new Date();
    const lower = (headers: Record<string, string>) =>
      Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
    const headers = lower(webhookHeaders(BODY, SECRET, now, 'id'));
    expect(isGenuine(BODY, headers, SECRET)).toBe(true);
    expect(isGenuine(`${BODY} `, headers, SECRET)).toBe(false);
    expect(isGenuine(BODY, headers, 'other')).toBe(false);
    const old = lower(webhookHeaders(BODY, SECRET, new Date(now.getTime() - 600_000), 'id'));
    expect(isGenuine(BODY, old, SECRET)).toBe(false);
  });

  it('gives the test vector the signer gives', () => {
    expect(doc).toContain(webhookSignature(BODY, SECRET, 1_700_000_000));
  });
});
