import { render } from 'preact';
import { App } from './App.tsx';
import { loadUserContext, resetCatalog } from './state/catalog.ts';
import { startRouter } from './state/router.ts';
import { session, shareSessionAcrossTabs } from './state/session.ts';
import './styles.css';

startRouter();
// A tab opened from another (a bug in a new tab) takes its login before the first page renders.
void shareSessionAcrossTabs().then(() => {
  // Whenever someone logs in (here or in another tab), the catalogue is read again as them.
  let login: string | undefined;
  session.subscribe((value) => {
    if (value?.login === login) return;
    login = value?.login;
    resetCatalog();
    if (value) void loadUserContext();
  });
  render(<App />, document.getElementById('app')!);
});
