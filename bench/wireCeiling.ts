/**
 * The most requests per second this machine serves for an answer of a given size when serving
 * it is all a server does: a Node.js process answering every request with the same bytes, held
 * ready, to the same load generator at the same number of connections. `npm run bench:search`
 * puts it beside each scenario, so the table says how much of a large answer's time is the
 * answer's bytes crossing loopback (and the load generator reading them) rather than Tracker's
 * work. Nothing Tracker does can make a scenario faster than this.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';

/** The bare server: one Buffer, written whole to every request. */
const SERVER = `
const { createServer } = require('node:http');
const body = require('node:fs').readFileSync(process.argv[1]);
const server = createServer((request, response) => {
  response.writeHead(200, { 'Content-Type': 'application/json; charset=UTF-8' }).end(body);
});
server.listen(0, '127.0.0.1', () => console.log('READY ' + server.address().port));
`;

export interface WireCeiling {
  rps: number;
  p50: number;
}

/** Requests per second and median latency for `body` from the bare server, after `warmupS` seconds. */
export async function measureWireCeiling(
  body: string,
  options: { connections: number; durationS: number; warmupS: number },
): Promise<WireCeiling> {
  const scratch = mkdtempSync(join(os.tmpdir(), 'tracker-bench-wire-'));
  const file = join(scratch, 'body.json');
  writeFileSync(file, body);
  const child = spawn(process.execPath, ['-e', SERVER, file], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const port = await new Promise<number>((done, fail) => {
      createInterface({ input: child.stdout! }).on('line', (line) => {
        if (line.startsWith('READY ')) done(Number(line.slice(6)));
      });
      child.once('exit', (code) => fail(new Error(`the bare server exited ${code}`)));
    });
    const url = `http://127.0.0.1:${port}/`;
    const run = (duration: number) =>
      new Promise<autocannon.Result>((done, fail) =>
        autocannon({ url, connections: options.connections, pipelining: 1, duration }, (error, result) =>
          error ? fail(error) : done(result),
        ),
      );
    await run(options.warmupS);
    const result = await run(options.durationS);
    return { rps: result.requests.average, p50: result.latency.p50 };
  } finally {
    child.kill('SIGTERM');
    rmSync(scratch, { recursive: true, force: true });
  }
}
