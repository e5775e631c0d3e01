import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { updateToken } from '../../shared/application/bug/bugContext.ts';
import type { Bug } from '../../shared/domain/bug/bug.ts';

const bug = (id: number, lastChangeTime: string) => ({ id, lastChangeTime }) as Bug;
const expected = (secret: string, userId: number, id: number, at: string) =>
  `${Math.floor(Date.parse(at) / 1000)}-${createHmac('sha256', secret).update(`${userId}:${id}:${at}`).digest('base64url')}`;

describe('update tokens', () => {
  const saved = process.env.TRACKER_TOKEN_SECRET;
  afterEach(() => {
    if (saved === undefined) delete process.env.TRACKER_TOKEN_SECRET;
    else process.env.TRACKER_TOKEN_SECRET = saved;
  });

  it('are the keyed hash of viewer, bug and last change, remembered or not', () => {
    process.env.TRACKER_TOKEN_SECRET = 'first secret';
    const at = '2026-01-02T03:04:05Z';
    expect(updateToken(7, bug(1, at))).toBe(expected('first secret', 7, 1, at));
    // Asked again: the remembered token, the same text.
    expect(updateToken(7, bug(1, at))).toBe(expected('first secret', 7, 1, at));
    expect(updateToken(8, bug(1, at))).toBe(expected('first secret', 8, 1, at));
    expect(updateToken(8, bug(1, at))).not.toBe(updateToken(7, bug(1, at)));
  });

  it("change with the bug's last change and with the secret", () => {
    process.env.TRACKER_TOKEN_SECRET = 'first secret';
    const before = updateToken(7, bug(2, '2026-01-02T03:04:05Z'));
    const after = updateToken(7, bug(2, '2026-01-02T03:04:06Z'));
    expect(after).toBe(expected('first secret', 7, 2, '2026-01-02T03:04:06Z'));
    expect(after).not.toBe(before);
    process.env.TRACKER_TOKEN_SECRET = 'second secret';
    expect(updateToken(7, bug(2, '2026-01-02T03:04:06Z'))).toBe(
      expected('second secret', 7, 2, '2026-01-02T03:04:06Z'),
    );
  });
});
