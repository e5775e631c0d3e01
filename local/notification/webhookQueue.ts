import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { WebhookTarget } from '../../shared/application/notification/notificationOutlets.ts';
import type { TrackerEvent } from '../../shared/domain/notification/bugEvents.ts';
import { postWebhook } from '../../shared/storage/notification/httpWebhookPoster.ts';

/**
 * The webhooks of `npm start`, kept as docs/events.md promises (on AWS, EventBridge and Lambda
 * keep them): the publisher hands each event for a webhook to this queue, which writes it to a
 * file under `<outbox>/webhooks/<target>/` before the publisher marks it delivered, so handing it
 * over takes no time and never waits for a receiver. Each webhook has its own queue, posted in
 * order, one event at a time, by a loop of its own: a receiver that hangs or fails holds back only
 * its own events, never another webhook's, nor anyone's mail. A post that fails is tried again
 * after a pause that doubles (1 s, 2 s, 4 s, ... at most 5 minutes); the event and where its
 * retries stand are files, so a restart goes on where the last run stopped. An event a receiver
 * has not taken for 24 hours is moved to `failed/` beside its queue and logged, so one event a
 * receiver always refuses does not stop the others for ever. Delivery is at least once: a post
 * that a receiver took but whose answer was lost (a crash, a timeout) is made again, with the
 * same `X-Tracker-Event-Id`.
 */
export interface WebhookQueueOptions {
  /** Where the queues are kept: `<outbox>/webhooks`. */
  directory: string;
  /** The webhooks configured now; their secrets sign (an event queued for one no longer named waits). */
  targets?: readonly WebhookTarget[];
  /** How long one post may take before it counts as failed. */
  timeoutMs?: number;
  /** The pause after the first failure of an event; it doubles after each further one. */
  firstRetryMs?: number;
  /** The longest pause between two tries. */
  longestRetryMs?: number;
  /** How long an event may keep failing before it is moved to `failed/`. */
  giveUpAfterMs?: number;
  log?: WebhookQueueLog;
  now?: () => number;
}

export interface WebhookQueueLog {
  warn(message: string, details?: Record<string, unknown>): void;
  error(message: string, details?: Record<string, unknown>): void;
}

/** Where one event's retries stand: kept in `retry.json` beside its queue. */
interface RetryState {
  eventId: string;
  attempts: number;
  firstFailure: number;
  nextAttempt: number;
  lastError: string;
}

interface QueuedEvent {
  url: string;
  event: TrackerEvent;
}

/** The pause before the next try of an event that failed `attempts` times. */
export const retryDelay = (attempts: number, firstMs: number, longestMs: number): number =>
  Math.min(firstMs * 2 ** Math.min(attempts - 1, 30), longestMs);

const DEFAULTS = {
  timeoutMs: 10_000,
  firstRetryMs: 1_000,
  longestRetryMs: 5 * 60_000,
  giveUpAfterMs: 24 * 60 * 60_000,
};

const CONSOLE_LOG: WebhookQueueLog = {
  warn: (message, details) => console.warn(message, details ?? ''),
  error: (message, details) => console.error(message, details ?? ''),
};

const RETRY_FILE = 'retry.json';
const TARGET_FILE = 'target.json';
const EVENT_FILE = /^\d{21}-.+\.json$/;

/** Writes a whole file or none: the process may stop at any moment. */
function writeWhole(path: string, content: string): void {
  writeFileSync(`${path}.tmp`, content);
  renameSync(`${path}.tmp`, path);
}

/** A queue's directory name: the same URL always gives the same directory. */
export const queueDirectoryName = (url: string): string => createHash('sha256').update(url).digest('hex').slice(0, 16);

export interface FlushReport {
  delivered: number;
  failed: number;
}

class TargetQueue {
  /** File names of the events waiting, oldest first. */
  readonly pending: string[];
  readonly eventIds: Set<string>;
  retry: RetryState | undefined;
  private wakeUp: (() => void) | undefined;
  private inFlight: AbortController | undefined;

  constructor(
    readonly directory: string,
    public target: WebhookTarget,
  ) {
    mkdirSync(directory, { recursive: true });
    if (!existsSync(join(directory, TARGET_FILE)))
      writeWhole(join(directory, TARGET_FILE), `${JSON.stringify({ url: target.url })}\n`);
    this.pending = readdirSync(directory)
      .filter((name) => EVENT_FILE.test(name))
      .sort();
    this.eventIds = new Set(this.pending.map(eventIdOf));
    try {
      this.retry = JSON.parse(readFileSync(join(directory, RETRY_FILE), 'utf8')) as RetryState;
    } catch {
      this.retry = undefined;
    }
  }

  wake(): void {
    this.wakeUp?.();
  }

  /** Waits until woken or `ms` passed (forever without `ms`). */
  sleep(ms?: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = ms === undefined ? undefined : setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wakeUp = () => {
        this.wakeUp = undefined;
        done();
      };
    });
  }

  abort(): void {
    this.inFlight?.abort();
  }

  /** Posts the oldest event once; true when the receiver took it. */
  async attempt(
    options: Required<Omit<WebhookQueueOptions, 'targets' | 'directory'>>,
    stopping: () => boolean,
  ): Promise<boolean> {
    const name = this.pending[0]!;
    const path = join(this.directory, name);
    let queued: QueuedEvent;
    try {
      queued = JSON.parse(readFileSync(path, 'utf8')) as QueuedEvent;
    } catch (error) {
      // A file that cannot be read can never be posted: set aside, not retried for ever.
      this.setAside(name, `unreadable: ${error instanceof Error ? error.message : error}`, options.log);
      return false;
    }
    this.inFlight = new AbortController();
    try {
      await postWebhook(this.target, queued.event, {
        attempts: 1,
        timeoutMs: options.timeoutMs,
        signal: this.inFlight.signal,
      });
    } catch (error) {
      if (stopping()) return false;
      this.failed(name, queued.event.id, error instanceof Error ? error.message : String(error), options);
      return false;
    } finally {
      this.inFlight = undefined;
    }
    this.done(name);
    return true;
  }

  private done(name: string): void {
    rmSync(join(this.directory, name), { force: true });
    this.pending.shift();
    this.eventIds.delete(eventIdOf(name));
    this.clearRetry();
  }

  private clearRetry(): void {
    this.retry = undefined;
    rmSync(join(this.directory, RETRY_FILE), { force: true });
  }

  private failed(
    name: string,
    eventId: string,
    reason: string,
    options: Required<Omit<WebhookQueueOptions, 'targets' | 'directory'>>,
  ): void {
    const now = options.now();
    const before = this.retry?.eventId === eventId ? this.retry : undefined;
    const attempts = (before?.attempts ?? 0) + 1;
    const firstFailure = before?.firstFailure ?? now;
    if (now - firstFailure >= options.giveUpAfterMs) {
      this.setAside(
        name,
        `not taken for ${Math.round((now - firstFailure) / 60_000)} minutes (${reason})`,
        options.log,
      );
      return;
    }
    const delay = retryDelay(attempts, options.firstRetryMs, options.longestRetryMs);
    this.retry = { eventId, attempts, firstFailure, nextAttempt: now + delay, lastError: reason };
    writeWhole(join(this.directory, RETRY_FILE), `${JSON.stringify(this.retry, null, 2)}\n`);
    options.log.warn('webhook delivery failed, trying again later', {
      url: this.target.url,
      eventId,
      reason,
      attempts,
      retryInMs: delay,
      waiting: this.pending.length,
    });
  }

  /** Moves an event out of the queue, into `failed/`, for a person to look at. */
  private setAside(name: string, reason: string, log: WebhookQueueLog): void {
    const failedDirectory = join(this.directory, 'failed');
    mkdirSync(failedDirectory, { recursive: true });
    renameSync(join(this.directory, name), join(failedDirectory, name));
    this.pending.shift();
    this.eventIds.delete(eventIdOf(name));
    this.clearRetry();
    log.error('webhook event given up on: moved to failed/', {
      url: this.target.url,
      eventId: eventIdOf(name),
      reason,
      file: join(failedDirectory, name),
    });
  }
}

const eventIdOf = (name: string) => name.slice(22, -'.json'.length);

export class WebhookQueue {
  private readonly queues = new Map<string, TargetQueue>();
  private readonly options: Required<Omit<WebhookQueueOptions, 'targets' | 'directory'>>;
  private readonly loops: Promise<void>[] = [];
  private started = false;
  private stopped = false;
  private sequence = 0;

  constructor(private readonly settings: WebhookQueueOptions) {
    this.options = {
      timeoutMs: settings.timeoutMs ?? DEFAULTS.timeoutMs,
      firstRetryMs: settings.firstRetryMs ?? DEFAULTS.firstRetryMs,
      longestRetryMs: settings.longestRetryMs ?? DEFAULTS.longestRetryMs,
      giveUpAfterMs: settings.giveUpAfterMs ?? DEFAULTS.giveUpAfterMs,
      log: settings.log ?? CONSOLE_LOG,
      now: settings.now ?? Date.now,
    };
    mkdirSync(settings.directory, { recursive: true });
    for (const target of settings.targets ?? []) this.queueOf(target);
  }

  /** Keeps the event for the webhook (once: an event already waiting for it is not kept twice). */
  enqueue(target: WebhookTarget, event: TrackerEvent): void {
    const queue = this.queueOf(target);
    if (queue.eventIds.has(event.id)) return;
    // Names sort in the order events were queued, across restarts: the time, then a counter.
    const name = `${String(this.options.now()).padStart(15, '0')}${String(this.sequence++ % 1_000_000).padStart(6, '0')}-${event.id}.json`;
    const queued: QueuedEvent = { url: target.url, event };
    writeWhole(join(queue.directory, name), JSON.stringify(queued));
    queue.pending.push(name);
    queue.eventIds.add(event.id);
    queue.wake();
  }

  /** Events waiting, by webhook URL. */
  waiting(): Map<string, number> {
    return new Map([...this.queues.values()].map((queue) => [queue.target.url, queue.pending.length]));
  }

  /** Starts one delivery loop per webhook; events queued by an earlier run go first. */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.tellAboutOrphans();
    for (const queue of this.queues.values()) this.loops.push(this.run(queue));
  }

  /**
   * Posts what waits now, without the pauses (for tests and tools; not while started): each
   * webhook's events in order, in parallel across webhooks, each queue up to its first failure.
   */
  async flush(): Promise<FlushReport> {
    if (this.started) throw new Error('flush() is for a queue that is not started');
    const report: FlushReport = { delivered: 0, failed: 0 };
    await Promise.all(
      [...this.queues.values()].map(async (queue) => {
        while (queue.pending.length > 0) {
          if (!(await queue.attempt(this.options, () => this.stopped))) {
            report.failed++;
            return;
          }
          report.delivered++;
        }
      }),
    );
    return report;
  }

  /** Stops the loops; a post under way is cut off, and its event stays queued for the next run. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const queue of this.queues.values()) {
      queue.abort();
      queue.wake();
    }
    await Promise.all(this.loops);
  }

  private queueOf(target: WebhookTarget): TargetQueue {
    let queue = this.queues.get(target.url);
    if (!queue) {
      queue = new TargetQueue(join(this.settings.directory, queueDirectoryName(target.url)), target);
      this.queues.set(target.url, queue);
      if (this.started) this.loops.push(this.run(queue));
    }
    return queue;
  }

  private async run(queue: TargetQueue): Promise<void> {
    while (!this.stopped) {
      if (queue.pending.length === 0) {
        await queue.sleep();
        continue;
      }
      const head = eventIdOf(queue.pending[0]!);
      const wait = queue.retry?.eventId === head ? queue.retry.nextAttempt - this.options.now() : 0;
      if (wait > 0) {
        await queue.sleep(wait);
        continue;
      }
      await queue.attempt(this.options, () => this.stopped);
    }
  }

  /** Queues left by an earlier run for a webhook TRACKER_WEBHOOKS no longer names: said once, kept. */
  private tellAboutOrphans(): void {
    const known = new Set([...this.queues.values()].map((queue) => queue.directory));
    for (const entry of readdirSync(this.settings.directory, { withFileTypes: true })) {
      const directory = join(this.settings.directory, entry.name);
      if (!entry.isDirectory() || known.has(directory)) continue;
      const waiting = readdirSync(directory).filter((name) => EVENT_FILE.test(name)).length;
      if (waiting === 0) continue;
      let url = '?';
      try {
        url = (JSON.parse(readFileSync(join(directory, TARGET_FILE), 'utf8')) as { url: string }).url;
      } catch {}
      this.options.log.warn('webhook events wait for a webhook TRACKER_WEBHOOKS no longer names: kept', {
        url,
        waiting,
        directory,
      });
    }
  }
}
