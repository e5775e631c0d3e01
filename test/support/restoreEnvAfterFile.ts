import { afterAll } from 'vitest';
import { putBackEnvironment } from './environment.ts';

/**
 * The environment as the file found it, put back when it ends: the files of a project run one
 * after another in a shared process (vitest.config.ts), and a variable one file sets (a table's
 * name, a Lambda variable, a switch) must not reach the next file or the programs it starts.
 *
 * First among the setup files, so that it runs after every other file's end hooks.
 */
const found = { ...process.env };

afterAll(() => putBackEnvironment(found));
