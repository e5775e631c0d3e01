/**
 * The two concurrency tools the source side needs, small enough not to warrant a dependency:
 * a semaphore that bounds requests in flight (the `--connections` a source is read with), and an
 * ordered parallel map that keeps a few batches in flight while handing them out in order, so a
 * writer consuming one batch overlaps with the reads of the next ones.
 */

export class Semaphore {
  private available: number;
  private readonly waiting: Array<() => void> = [];

  constructor(readonly size: number) {
    if (!Number.isInteger(size) || size < 1) throw new RangeError(`a semaphore needs at least one slot, not ${size}`);
    this.available = size;
  }

  async acquire(): Promise<void> {
    if (this.available > 0) {
      this.available--;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  /** Hands the slot straight to the next waiter, so a burst cannot overtake those already queued. */
  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.available++;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    await this.acquire();
    try {
      return await task();
    } finally {
      this.release();
    }
  }
}

/**
 * Maps `inputs` through `task` with at most `ahead` tasks running, yielding results in input
 * order. A failed task fails the iteration when its turn comes (the ones after it still settle,
 * so nothing is left rejecting unobserved).
 */
export async function* orderedMap<I, O>(
  inputs: Iterable<I> | AsyncIterable<I>,
  ahead: number,
  task: (input: I) => Promise<O>,
): AsyncGenerator<O> {
  const pending: Array<Promise<O>> = [];
  try {
    for await (const input of inputs) {
      const running = task(input);
      running.catch(() => {});
      pending.push(running);
      if (pending.length >= Math.max(1, ahead)) yield await pending.shift()!;
    }
    while (pending.length > 0) yield await pending.shift()!;
  } finally {
    await Promise.allSettled(pending);
  }
}

/** Splits an inclusive id range into consecutive chunks of at most `size` ids. */
export function* idChunks(range: IdRange, size: number): Generator<number[]> {
  for (let start = range.from; start <= range.to; start += size) {
    const end = Math.min(range.to, start + size - 1);
    yield Array.from({ length: end - start + 1 }, (_, index) => start + index);
  }
}

/** Splits a list into consecutive chunks of at most `size` entries. */
export function* chunksOf<T>(items: readonly T[], size: number): Generator<T[]> {
  for (let start = 0; start < items.length; start += size) yield items.slice(start, start + size);
}

/** An inclusive range of ids, the unit bug and user reads are planned in. */
export interface IdRange {
  from: number;
  to: number;
}
