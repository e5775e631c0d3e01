/**
 * A set of user ids as a bitmap (bit `id` of byte `id >> 3`), kept as base64 text: one group's
 * regexp members (groupRegexps.ts). User ids are sequential, so 100,000 users take 12.5 KB
 * (16.7 KB of text), well inside a DynamoDB item, and membership is one look at four characters.
 */
export type UserIdBitmap = string;

export const EMPTY_BITMAP: UserIdBitmap = '';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const SEXTET = new Int8Array(128).fill(-1);
for (let index = 0; index < ALPHABET.length; index++) SEXTET[ALPHABET.charCodeAt(index)] = index;

const sextet = (bitmap: string, at: number): number =>
  at < bitmap.length ? Math.max(SEXTET[bitmap.charCodeAt(at) & 127], 0) : 0;

/** Whether `id` is in the set, without decoding the rest of it. */
export function bitmapHas(bitmap: UserIdBitmap, id: number): boolean {
  if (!Number.isSafeInteger(id) || id < 0) return false;
  const byte = id >> 3;
  const group = Math.floor(byte / 3) * 4;
  if (group >= bitmap.length) return false;
  const triple =
    (sextet(bitmap, group) << 18) |
    (sextet(bitmap, group + 1) << 12) |
    (sextet(bitmap, group + 2) << 6) |
    sextet(bitmap, group + 3);
  const value = (triple >> (16 - 8 * (byte % 3))) & 0xff;
  return ((value >> (id & 7)) & 1) === 1;
}

function decode(bitmap: UserIdBitmap): Uint8Array {
  return new Uint8Array(Buffer.from(bitmap, 'base64'));
}

function encode(bytes: Uint8Array): UserIdBitmap {
  let length = bytes.length;
  while (length > 0 && bytes[length - 1] === 0) length--;
  return Buffer.from(bytes.buffer, bytes.byteOffset, length).toString('base64');
}

export function bitmapOf(ids: Iterable<number>): UserIdBitmap {
  const list = [...ids].filter((id) => Number.isSafeInteger(id) && id >= 0);
  const bytes = new Uint8Array(list.length === 0 ? 0 : (Math.max(...list) >> 3) + 1);
  for (const id of list) bytes[id >> 3] |= 1 << (id & 7);
  return encode(bytes);
}

/** The set with `id` added (`present`) or removed. */
export function bitmapWith(bitmap: UserIdBitmap, id: number, present: boolean): UserIdBitmap {
  if (bitmapHas(bitmap, id) === present) return bitmap;
  const current = decode(bitmap);
  const bytes = new Uint8Array(Math.max(current.length, (id >> 3) + 1));
  bytes.set(current);
  if (present) bytes[id >> 3] |= 1 << (id & 7);
  else bytes[id >> 3] &= ~(1 << (id & 7));
  return encode(bytes);
}

/** The set with every one of `ids` added. */
export function bitmapWithAll(bitmap: UserIdBitmap, ids: Iterable<number>): UserIdBitmap {
  const added = [...ids].filter((id) => Number.isSafeInteger(id) && id >= 0 && !bitmapHas(bitmap, id));
  if (added.length === 0) return bitmap;
  const current = decode(bitmap);
  const bytes = new Uint8Array(Math.max(current.length, (added.reduce((a, b) => Math.max(a, b)) >> 3) + 1));
  bytes.set(current);
  for (const id of added) bytes[id >> 3] |= 1 << (id & 7);
  return encode(bytes);
}

export function bitmapIds(bitmap: UserIdBitmap): number[] {
  const bytes = decode(bitmap);
  const ids: number[] = [];
  for (let byte = 0; byte < bytes.length; byte++) {
    if (bytes[byte] === 0) continue;
    for (let bit = 0; bit < 8; bit++) if (bytes[byte] & (1 << bit)) ids.push(byte * 8 + bit);
  }
  return ids;
}
