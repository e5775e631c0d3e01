import { computed, signal } from '@preact/signals';
import { isAppPath, parseRoute } from '../lib/routes.ts';

/** The current address, as a signal; the app re-renders its page when it changes. */
export const location = signal({ pathname: window.location.pathname, search: window.location.search });

export const route = computed(() => parseRoute(location.value.pathname, location.value.search));

/** Status messages for screen readers and sighted people alike (an aria-live region shows it). */
export const announcement = signal('');

export function announce(text: string): void {
  announcement.value = '';
  queueMicrotask(() => {
    announcement.value = text;
  });
}

export function navigate(href: string, replace = false): void {
  const url = new URL(href, window.location.href);
  if (url.origin !== window.location.origin || !isAppPath(url.pathname)) {
    window.location.assign(url.href);
    return;
  }
  if (replace) history.replaceState(null, '', url.pathname + url.search + url.hash);
  else history.pushState(null, '', url.pathname + url.search + url.hash);
  location.value = { pathname: url.pathname, search: url.search };
  if (!url.hash) window.scrollTo(0, 0);
}

/** Same-origin links to app pages navigate in place; everything else behaves as a link does. */
export function startRouter(): void {
  window.addEventListener('popstate', () => {
    location.value = { pathname: window.location.pathname, search: window.location.search };
  });
  document.addEventListener('click', (event) => {
    if (
      event.defaultPrevented ||
      event.button !== 0 ||
      event.metaKey ||
      event.ctrlKey ||
      event.shiftKey ||
      event.altKey
    ) {
      return;
    }
    const anchor = (event.target as Element | null)?.closest?.('a');
    if (!anchor || anchor.target || anchor.hasAttribute('download')) return;
    const href = anchor.getAttribute('href');
    if (!href || href.startsWith('#')) return;
    const url = new URL(anchor.href);
    if (url.origin !== window.location.origin || !isAppPath(url.pathname)) return;
    event.preventDefault();
    navigate(url.href);
  });
}
