import { render } from 'preact';
import { App } from './App.tsx';
import { loadUserContext } from './state/catalog.ts';
import { startRouter } from './state/router.ts';
import './styles.css';

startRouter();
void loadUserContext();
render(<App />, document.getElementById('app')!);
