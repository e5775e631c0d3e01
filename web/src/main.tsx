import { render } from 'preact';
import { App } from './App.tsx';
import { preloadBug } from './bug/loadBug.ts';
import { preloadBuglist } from './buglist/loadBuglist.ts';
import { loadUserContext, resetCatalog, revalidateCatalog } from './state/catalog.ts';
import { route, startRouter } from './state/router.ts';
import { session, shareSessionAcrossTabs } from './state/session.ts';
import './styles.css';

/**
 * The first page's own data (a bug page's, a bug list's), asked for as soon as the script runs:
 * its requests go out before the first render, whose effects run only after a frame.
 */
function preloadFirstPage(): Promise<unknown> | undefined {
  const first = route.value;
  if (first.page === 'bug') return preloadBug(first.id);
  if (first.page === 'buglist') return preloadBuglist(first.params);
  return undefined;
}

function whenIdle(then: () => void): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(then, { timeout: 1000 });
  else setTimeout(then, 50);
}

startRouter();
// A tab opened from another (a bug in a new tab) takes its login before the first page renders.
void shareSessionAcrossTabs().then(() => {
  const firstPage = preloadFirstPage();
  // Whenever someone logs in (here or in another tab), the catalogue is read again as them; on
  // start it comes from the tab's copy (state/keptCatalog.ts) when the tab kept this person's.
  let login: string | undefined;
  let started = false;
  session.subscribe((value) => {
    if (started && value?.login === login) return;
    if (started) resetCatalog();
    started = true;
    login = value?.login;
    if (value) void loadUserContext();
  });
  render(<App />, document.getElementById('app')!);
  // What came from the tab's copy is read again once the first page's data is in and the
  // browser is idle (the page has rendered it), so that it does not hold the page up.
  void Promise.allSettled([firstPage]).then(() => whenIdle(() => void revalidateCatalog()));
});
