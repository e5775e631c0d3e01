import { readFile, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, resolve, sep } from 'node:path';
import { brotliCompressSync, gzipSync, constants as zlib } from 'node:zlib';
import { MAX_QUERY_BYTES } from '../shared/http/middleware/queryLimit.ts';
import { HTML_CACHE_CONTROL, IMMUTABLE_CACHE_CONTROL, WEB_SECURITY_HEADERS } from '../shared/web/webHeaders.ts';

/**
 * Serves the built web front end (web/dist, `npm run build:web`) locally as CloudFront serves it
 * on AWS: the files with their content types, index.html for every other address (the app is a
 * single page that reads the address itself: /show_bug.cgi?id=1, /buglist.cgi?..., /login), and
 * the security and caching headers of shared/web/webHeaders.ts. It serves GET and HEAD; which
 * requests are the web's and which the API's is the emulator's choice (isApiPath).
 */
export type WebFileServer = (request: IncomingMessage, response: ServerResponse) => Promise<void>;

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
};

/**
 * A name with a content hash in it, as bundlers write them (`index-5XJ2ABCD.js`, `app.3f9a1c2e.css`):
 * eight or more letters and digits after a dash or dot, with at least one digit or capital, so
 * that a plain word (`-settings.js`) is not taken for one.
 */
const HASHED_NAME = /[-.](?=[a-z0-9_]*[0-9A-Z])[A-Za-z0-9_]{8,}\.[A-Za-z0-9]+$/;

export function isHashedName(name: string): boolean {
  return HASHED_NAME.test(name);
}

export function webFileServer(dir: string): WebFileServer {
  const root = resolve(dir);
  return async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const head = request.method === 'HEAD';
    // Bugzilla's answer to an over-long query string on its pages: back to the home page.
    if (Buffer.byteLength(url.search.slice(1), 'utf8') > MAX_QUERY_BYTES) {
      send(response, 302, { Location: '/', 'Cache-Control': 'no-store' }, undefined, head);
      return;
    }
    const file = fileOf(root, url.pathname);
    const found = file ? await readIfFile(file) : undefined;
    if (found) {
      const name = file!.slice(root.length + 1);
      const cacheControl = name !== 'index.html' && isHashedName(name) ? IMMUTABLE_CACHE_CONTROL : HTML_CACHE_CONTROL;
      serveFile(request, response, found, extname(file!), cacheControl);
      return;
    }
    // A missing script or style must not come back as the page (a 200 text/html "script").
    if (file === null || looksLikeFile(url.pathname)) {
      send(response, 404, { 'Content-Type': 'text/plain; charset=utf-8' }, 'Not found\n', head);
      return;
    }
    const index = await readIfFile(join(root, 'index.html'));
    if (!index) {
      const message = `The web app is not built (no ${join(root, 'index.html')}): run npm run build:web\n`;
      send(response, 503, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' }, message, head);
      return;
    }
    serveFile(request, response, index, '.html', HTML_CACHE_CONTROL);
  };
}

interface FoundFile {
  body: Buffer;
  etag: string;
  modified: Date;
}

/**
 * The file an address names under the root; undefined for / (the page itself), null for an
 * address that can name no file there (escapes the root, a dot file, a bad escape).
 */
function fileOf(root: string, pathname: string): string | null | undefined {
  let path: string;
  try {
    path = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  if (path === '/' || path === '') return undefined;
  if (path.includes('\0') || path.split('/').some((segment) => segment.startsWith('.'))) return null;
  const file = resolve(root, `.${path}`);
  return file.startsWith(`${root}${sep}`) ? file : null;
}

/** A path whose last segment has an extension (`/assets/app.js`), other than Bugzilla's `.cgi` pages. */
function looksLikeFile(pathname: string): boolean {
  const last = pathname.slice(pathname.lastIndexOf('/') + 1);
  const extension = extname(last);
  return pathname.startsWith('/assets/') || (extension !== '' && extension !== '.cgi');
}

async function readIfFile(file: string): Promise<FoundFile | undefined> {
  try {
    const info = await stat(file);
    if (!info.isFile()) return undefined;
    const body = await readFile(file);
    return { body, etag: `"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"`, modified: info.mtime };
  } catch {
    return undefined;
  }
}

function serveFile(
  request: IncomingMessage,
  response: ServerResponse,
  file: FoundFile,
  extension: string,
  cacheControl: string,
): void {
  const head = request.method === 'HEAD';
  const headers = {
    'Content-Type': CONTENT_TYPES[extension] ?? 'application/octet-stream',
    'Cache-Control': cacheControl,
    ETag: file.etag,
    'Last-Modified': file.modified.toUTCString(),
  };
  const ifNoneMatch = request.headers['if-none-match'];
  if (ifNoneMatch?.split(/\s*,\s*/).includes(file.etag)) {
    send(response, 304, headers, undefined, true);
    return;
  }
  const encoding = compressible(headers['Content-Type'], file.body) ? chosenEncoding(request) : undefined;
  if (!encoding) {
    send(response, 200, headers, file.body, head);
    return;
  }
  send(
    response,
    200,
    { ...headers, 'Content-Encoding': encoding, Vary: 'Accept-Encoding' },
    compressed(file, encoding),
    head,
  );
}

/**
 * Text files go out compressed when the browser takes it, as CloudFront compresses them on AWS
 * (lib/webFrontEnd.ts): the first page is then about a third of its size over a network.
 */
const COMPRESSIBLE = /^(text\/|application\/(json|manifest\+json)|image\/svg\+xml)/;
const compressible = (type: string, body: Buffer) => COMPRESSIBLE.test(type) && body.length >= 1024;

type Encoding = 'br' | 'gzip';

/** Brotli where the browser names it, else gzip; nothing for a coding given q=0 or not named. */
function chosenEncoding(request: IncomingMessage): Encoding | undefined {
  const accepted = new Map<string, number>();
  for (const part of String(request.headers['accept-encoding'] ?? '').split(',')) {
    const [name, ...parameters] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const quality = parameters.map((parameter) => /^\s*q=([0-9.]+)\s*$/.exec(parameter)?.[1]).find(Boolean);
    accepted.set(name, quality === undefined ? 1 : Number(quality));
  }
  const takes = (name: Encoding) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0;
  if (takes('br')) return 'br';
  if (takes('gzip')) return 'gzip';
  return undefined;
}

/** Compressed once per file version (its ETag) and encoding: the built files never change in place. */
const compressedBodies = new Map<string, Buffer>();

function compressed(file: FoundFile, encoding: Encoding): Buffer {
  const key = `${encoding} ${file.etag} ${file.body.length}`;
  let body = compressedBodies.get(key);
  if (!body) {
    body =
      encoding === 'br'
        ? brotliCompressSync(file.body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 9 } })
        : gzipSync(file.body, { level: 9 });
    if (compressedBodies.size > 200) compressedBodies.clear();
    compressedBodies.set(key, body);
  }
  return body;
}

function send(
  response: ServerResponse,
  status: number,
  headers: Record<string, string>,
  body: string | Buffer | undefined,
  head: boolean,
): void {
  const length = body === undefined ? 0 : Buffer.byteLength(body);
  response.writeHead(status, { ...WEB_SECURITY_HEADERS, ...headers, 'Content-Length': String(length) });
  response.end(head ? undefined : body);
}
