import type * as z from 'zod';
import { errors } from '../errors.ts';
import { logger } from '../observability/logger.ts';

/**
 * Items are parsed, not cast: a store turns what it read into a domain type through a zod schema
 * of the shape it writes (built once, when its module loads). An item that does not have that
 * shape, hand-edited or written by a defective version, is refused here with a typed error naming
 * it, and logged with what was wrong (paths and expectations, never the values), instead of
 * failing later with a TypeError far from the read, or being rendered as garbage.
 *
 * The schemas are `z.object`s, which keep only the attributes they name: the keys, `type` and the
 * other attributes that are no part of the domain object (a bug's `rev`) are left out by the
 * parse itself. So a schema names every field of its domain type (ShapeOf makes the compiler check
 * that) and every stored attribute a reader still needs (a legacy bug's version name).
 */

/** A zod shape with a schema for every field of T, optional ones included: none is forgotten. */
export type ShapeOf<T> = { [K in keyof T]-?: z.ZodType<T[K]> };

export type Item = Record<string, unknown>;

/** The item as `schema` reads it, or the registry's unreadableItem error (logged) naming `kind` and the key. */
export function parseItem<Schema extends z.ZodType>(schema: Schema, kind: string, item: Item): z.output<Schema> {
  const result = schema.safeParse(item);
  if (result.success) return result.data;
  const key = `${String(item.pk)} / ${String(item.sk)}`;
  logger.error('unreadable stored item', {
    kind,
    key,
    issues: result.error.issues.slice(0, 10).map((issue) => `${issue.path.join('.') || '(item)'}: ${issue.message}`),
  });
  throw errors.unreadableItem(kind, key);
}
