import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { API_REFERENCE_PATH, renderApiReference } from '../../local/apiReference.ts';
import { ERROR_CATALOG } from '../../shared/errors.ts';
import { routes } from '../../shared/routes.ts';

describe('docs/api-reference.md', () => {
  it('is what the route table and the error registry say (run `npm run docs:api` after changing them)', () => {
    expect(readFileSync(API_REFERENCE_PATH, 'utf8')).toBe(renderApiReference());
  });

  it('lists every route and every error code', () => {
    const text = renderApiReference();
    for (const route of routes) expect(text).toContain(`| ${route.method} | \`${route.path}\` |`);
    for (const { code } of Object.values(ERROR_CATALOG)) expect(text).toMatch(new RegExp(`\\| ${code} \\| \\d{3} \\|`));
  });
});
