#!/usr/bin/env node
/**
 * `npx tracker-import ...` (package.json `bin`): runs the importer's TypeScript entry (cli.ts)
 * with tsx's loader, resolved from this package, so it works from any directory.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const loader = import.meta.resolve('tsx');
const entry = fileURLToPath(new URL('./cli.ts', import.meta.url));
const child = spawn(process.execPath, ['--import', loader, entry, ...process.argv.slice(2)], { stdio: 'inherit' });
// Ctrl-C reaches the child through the terminal's process group; this process only waits for it.
process.on('SIGINT', () => {});
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 130 : 1)));
