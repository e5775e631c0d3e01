import { SnapshotReader, SnapshotWriter } from '../../shared/domain/search/snapshot/snapshotFormat.ts';

/** The sparse columns version 5 stores as one JSON text per bug, and version 4 as one JSON list. */
const STORED_JSON = ['seeAlso', 'flags', 'tags', 'custom', 'privateAttachments'];

/**
 * A snapshot as the code before version 5 wrote it: the same sections, with each sparse column
 * of structured values as one JSON list of `[slot, value]` (for reading an older compactor's
 * snapshot back).
 */
export function asVersion4(snapshot: Uint8Array): Uint8Array {
  const reader = new SnapshotReader(snapshot);
  const writer = new SnapshotWriter({ ...reader.fields, version: 4 });
  const sections = reader.sections();
  const stringLists = new Set(sections.filter((section) => section.kind === 'strings').map(({ name }) => name));
  for (const { name, kind } of sections) {
    const column = STORED_JSON.find((stored) => name === `${stored}.slots` || name === `${stored}.values`);
    if (column) {
      if (name.endsWith('.slots')) {
        const slots = reader.typed(name, 'i32');
        const values = reader.strings(`${column}.values`);
        writer.json(
          column,
          Array.from(slots, (slot, position) => [slot, JSON.parse(values[position]!)]),
        );
      }
      continue;
    }
    if (name.endsWith('.ends') && stringLists.has(name.slice(0, -'.ends'.length))) continue;
    if (kind === 'strings') writer.strings(name, reader.strings(name));
    else if (kind === 'json') writer.json(name, reader.json(name));
    else writer.typed(name, reader.typed(name, kind));
  }
  return writer.finish();
}
