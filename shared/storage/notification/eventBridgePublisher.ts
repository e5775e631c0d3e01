import { EventBridgeClient, PutEventsCommand, type PutEventsRequestEntry } from '@aws-sdk/client-eventbridge';
import { eventBridgeEntry, type TrackerEvent } from '../../domain/notification/bugEvents.ts';
import { sdkTimeouts } from '../sdkTimeouts.ts';

/**
 * Events on the stack's EventBridge bus. PutEvents takes at most 10 entries and 256 KB a call
 * (bugEvents keeps each detail under 240,000 bytes), and answers per entry: an entry it did not
 * take fails the whole publish, so the caller publishes the events again (a consumer drops the
 * repeats by `detail.event_id`).
 */
const ENTRIES_PER_CALL = 10;
/** PutEvents' limit for a call's entries together, with room for what the estimate leaves out. */
const BYTES_PER_CALL = 250_000;
/** What AWS counts for an entry's time (docs: "Calculating PutEvents event entry size"). */
const TIME_BYTES = 14;

const bytes = (text: string | undefined) => Buffer.byteLength(text ?? '', 'utf8');
const entrySize = (entry: PutEventsRequestEntry) =>
  TIME_BYTES + bytes(entry.Source) + bytes(entry.DetailType) + bytes(entry.Detail);

let client: EventBridgeClient | undefined;

/** The entries in calls PutEvents takes: by count and by size. */
export function putEventsCalls(entries: readonly PutEventsRequestEntry[]): PutEventsRequestEntry[][] {
  const calls: PutEventsRequestEntry[][] = [];
  let current: PutEventsRequestEntry[] = [];
  let size = 0;
  for (const entry of entries) {
    const next = entrySize(entry);
    if (current.length > 0 && (current.length === ENTRIES_PER_CALL || size + next > BYTES_PER_CALL)) {
      calls.push(current);
      current = [];
      size = 0;
    }
    current.push(entry);
    size += next;
  }
  if (current.length > 0) calls.push(current);
  return calls;
}

export async function putEventsOnBus(busName: string, events: readonly TrackerEvent[]): Promise<void> {
  client ??= new EventBridgeClient(sdkTimeouts());
  const entries = events.map((event) => ({ ...eventBridgeEntry(event), EventBusName: busName }));
  let offset = 0;
  for (const call of putEventsCalls(entries)) {
    const result = await client.send(new PutEventsCommand({ Entries: call }));
    if ((result.FailedEntryCount ?? 0) > 0) {
      const failures = (result.Entries ?? [])
        .map((entry, index) =>
          entry.ErrorCode ? `${events[offset + index]?.id}: ${entry.ErrorCode} ${entry.ErrorMessage ?? ''}` : '',
        )
        .filter(Boolean);
      throw new Error(`EventBridge did not take ${result.FailedEntryCount} event(s): ${failures.join('; ')}`);
    }
    offset += call.length;
  }
}
