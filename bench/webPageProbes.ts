/**
 * What bench/webPages.ts runs inside the page: Playwright sends these functions' source to
 * Chromium. The Node project compiles without the DOM's types, so the few browser globals they
 * touch are declared below, as loosely as that use needs (in this module only: nothing leaks).
 */

interface DomElement {
  textContent: string | null;
  disabled?: boolean;
  querySelector(selector: string): DomElement | null;
  querySelectorAll(selector: string): Iterable<DomElement> & { length: number };
  closest?(selector: string): DomElement | null;
}
interface PageTiming {
  name: string;
  startTime: number;
  duration: number;
  requestStart: number;
  responseStart: number;
  responseEnd: number;
}
declare const window: unknown;
declare const document: DomElement & {
  addEventListener(type: 'click', listener: (event: { target: DomElement | null }) => void, capture: boolean): void;
};
declare const performance: { now(): number; getEntriesByType(type: string): PageTiming[] };
declare function requestAnimationFrame(callback: () => void): number;
declare class MutationObserver {
  constructor(callback: () => void);
  observe(target: unknown, options: Record<string, boolean>): void;
}
declare class PerformanceObserver {
  constructor(callback: (list: { getEntries(): PageTiming[] }) => void);
  observe(options: { type: string; buffered: boolean }): void;
}

/**
 * Installed in every page of a measuring window before the app's own script (an init script), so
 * the time is the page's own and no driver round trip or polling is in it: a MutationObserver
 * checks, after each batch of changes to the document, whether what a person waits for is there;
 * the first time it is, the time is taken in the next animation frame (the frame that paints it)
 * and kept in `window.__usable` under the page's name. The driver reads it afterwards, whenever
 * it gets there. Times are performance.now(): from the navigation's start. The quicksearch's
 * start is the click on its button, taken in the page by a listener.
 */
export function watchWhatAPersonWaitsFor(): void {
  type Marks = Record<string, number>;
  const marks: Marks = {};
  const win = window as unknown as { __usable: Marks; __quicksearchClick?: number };
  win.__usable = marks;
  const seen = new Set<string>();
  const mark = (name: string) => {
    if (seen.has(name)) return;
    seen.add(name);
    requestAnimationFrame(() => {
      marks[name] = performance.now();
    });
  };
  const text = (element: DomElement | null | undefined) => element?.textContent?.trim() ?? '';
  const check = () => {
    const main = document.querySelector('main');
    if (!main) return;
    // The bug page: its heading, and the edit form's "Save changes" button, enabled.
    if (
      /^Bug \d+ –/.test(text(main.querySelector('h1'))) &&
      [...main.querySelectorAll('button')].some((b) => text(b) === 'Save changes' && !b.disabled)
    )
      mark('bug');
    const statuses = [...main.querySelectorAll('[role="status"]')].map(text);
    // The 500-bug list: its count, and its 500 rows.
    if (statuses.some((s) => /bugs found, showing 1–500\./.test(s)) && main.querySelectorAll('tbody tr').length === 500)
      mark('list');
    // The quicksearch's results, after its button was clicked.
    if (win.__quicksearchClick !== undefined && statuses.some((s) => /bugs? found|Zarro Boogs/.test(s)))
      mark('quicksearch');
  };
  document.addEventListener(
    'click',
    (event) => {
      const button = event.target?.closest?.('button');
      if (button && text(button) === 'Quick search') win.__quicksearchClick ??= performance.now();
    },
    true,
  );
  new MutationObserver(check).observe(document, {
    childList: true,
    subtree: true,
    characterData: true,
    attributes: true,
  });
  // The main thread's long tasks (over 50 ms: parsing and running script, rendering), for the breakdown.
  const longTasks: Array<{ start: number; duration: number }> = [];
  (window as unknown as { __longTasks: typeof longTasks }).__longTasks = longTasks;
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) longTasks.push({ start: entry.startTime, duration: entry.duration });
    }).observe({ type: 'longtask', buffered: true });
  } catch {
    // No long task timing in this browser: the breakdown goes without it.
  }
}

/** One request of a page as the page saw it (Resource Timing), in ms from the navigation's start. */
export interface RequestTiming {
  what: string;
  /** The page asked for it (fetch called, or the parser found the tag). */
  asked: number;
  /** The browser sent it (after any wait for a free connection); equal to `asked` when served from the cache. */
  sent: number;
  firstByte: number;
  done: number;
}

export interface Breakdown {
  usable: number;
  requests: RequestTiming[];
  /** Main-thread tasks over 50 ms before the page was usable: their count and total time. */
  longTasks: { count: number; total: number };
}

/** Run in the page once `name` was usable: its document and each request, and its long tasks. */
export function breakdownInPage(key: string): Breakdown {
  const win = window as unknown as {
    __usable: Record<string, number>;
    __longTasks: Array<{ start: number; duration: number }>;
  };
  const usable = win.__usable[key];
  const what = (url: string) => {
    const address = new URL(url);
    if (/^\/app-.*\.js$/.test(address.pathname)) return "the app's script";
    if (/^\/app-.*\.css$/.test(address.pathname)) return 'the stylesheet';
    if (/^\/chunk-.*\.js$/.test(address.pathname)) return 'a script chunk';
    const type = address.searchParams.get('type');
    return `GET ${address.pathname.replace(/\/\d+(?=\/|$)/g, '/N')}${type ? `?type=${type}` : ''}`;
  };
  const navigation = performance.getEntriesByType('navigation')[0];
  const entries = [
    { what: 'the HTML', entry: navigation },
    ...performance.getEntriesByType('resource').map((entry) => ({ what: what(entry.name), entry })),
  ];
  const requests = entries
    .filter(({ entry }) => entry.startTime <= usable)
    .map(({ what: name, entry }) => ({
      what: name,
      asked: entry.startTime,
      sent: entry.requestStart || entry.startTime,
      firstByte: entry.responseStart || entry.startTime,
      done: entry.responseEnd,
    }));
  const before = win.__longTasks.filter((task) => task.start < usable);
  return {
    usable,
    requests,
    longTasks: { count: before.length, total: before.reduce((sum, task) => sum + task.duration, 0) },
  };
}

/** Run in the page: the time kept for `key`, once there is one. */
export function usableMark(key: string): number | undefined {
  return (window as { __usable?: Record<string, number> }).__usable?.[key];
}

/** Run in the page: when the "Quick search" button was clicked. */
export function quicksearchClickTime(): number | undefined {
  return (window as { __quicksearchClick?: number }).__quicksearchClick;
}

/**
 * The source of a call of `probe` with `argument`, to evaluate in the page. Sent as text because
 * tsx compiles these functions with esbuild's keepNames, which wraps inner functions in a
 * `__name` helper that exists in Node, not in the page: the text defines a harmless one.
 */
export function inPage<A>(probe: (argument: A) => unknown, argument?: A): string {
  return `(() => { const __name = (target) => target; return (${probe.toString()})(${JSON.stringify(argument ?? null)}); })()`;
}
