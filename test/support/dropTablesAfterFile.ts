import { afterAll } from 'vitest';
import { dropWorkerTables } from './testEngines.ts';

// Every integration file ends by dropping the tables it made (see testEngines.ts): the next
// file on this worker starts on an engine holding nothing of it.
afterAll(dropWorkerTables, 120_000);
