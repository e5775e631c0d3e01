import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWeb, type WebBuild } from '../../web/build.ts';

/**
 * The web app as `npm run build:web` makes it: what the first page loads (index.html's one
 * script and one stylesheet) stays within the budget of 150 KB compressed, and the page
 * carries no inline script (it runs under script-src 'self').
 */
const BUDGET_BYTES = 150 * 1024;

let dir: string;
let build: WebBuild;

describe('the web app build', () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(os.tmpdir(), 'tracker-web-'));
    build = await buildWeb(dir);
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes index.html naming one hashed script and one hashed stylesheet, and no inline script', () => {
    const html = readFileSync(join(dir, 'index.html'), 'utf8');
    expect(build.script).toMatch(/^app-[A-Z0-9]+\.js$/);
    expect(build.stylesheet).toMatch(/^app-[A-Z0-9]+\.css$/);
    expect(html).toContain(`<script type="module" src="/${build.script}"></script>`);
    expect(html).toContain(`<link rel="stylesheet" href="/${build.stylesheet}">`);
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).not.toMatch(/\sstyle=|\son[a-z]+=/i);
  });

  it('keeps the first page within 150 KB of compressed JS and CSS', () => {
    expect(build.firstPageScripts).toContain(build.script);
    const size = [...build.firstPageScripts, build.stylesheet]
      .map((file) => gzipSync(readFileSync(join(dir, file)), { level: 9 }).length)
      .reduce((a, b) => a + b, 0);
    expect(size).toBeLessThanOrEqual(BUDGET_BYTES);
  });

  it('keeps the administration pages out of the first page, in a chunk loaded on demand', () => {
    const chunks = readdirSync(dir).filter((f) => /^chunk-[A-Z0-9]+\.js$/.test(f));
    const lazy = chunks.filter((f) => !build.firstPageScripts.includes(f));
    expect(lazy.length).toBeGreaterThan(0);
    const lazyCode = lazy.map((f) => readFileSync(join(dir, f), 'utf8')).join('\n');
    expect(lazyCode).toContain('You are not allowed to use this page');
    const firstCode = build.firstPageScripts.map((f) => readFileSync(join(dir, f), 'utf8')).join('\n');
    expect(firstCode).not.toContain('You are not allowed to use this page');
  });
});
