/**
 * Writes docs/openapi.json, the API's OpenAPI 3.1 description, from the route table, the
 * handlers' zod schemas and the error registry (openApiDocument.ts). A unit test builds it again
 * and compares, so the file cannot drift from the code; the instance/openapi function serves it.
 * Run: `npx tsx local/openapi/writeOpenApi.ts`.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { JsonSchema } from './jsonSchema.ts';
import { buildOpenApiDocument } from './openApiDocument.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const OPENAPI_PATH = join(ROOT, 'docs', 'openapi.json');

/** The document as the repository keeps it: indented, then laid out by Biome, which `npm test` checks. */
export function formatOpenApi(document: JsonSchema): string {
  const biome = join(ROOT, 'node_modules', '.bin', 'biome');
  const formatted = spawnSync(biome, ['format', `--stdin-file-path=${relative(ROOT, OPENAPI_PATH)}`], {
    cwd: ROOT,
    input: `${JSON.stringify(document, null, 2)}\n`,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (formatted.status !== 0) throw new Error(`biome format failed: ${formatted.stderr || formatted.error}`);
  return formatted.stdout;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (process.argv.includes('--help')) {
    console.log('Usage: npx tsx local/openapi/writeOpenApi.ts\nRewrites docs/openapi.json from the code.');
  } else {
    writeFileSync(OPENAPI_PATH, formatOpenApi(await buildOpenApiDocument()));
    console.log(`wrote ${OPENAPI_PATH}`);
  }
}
