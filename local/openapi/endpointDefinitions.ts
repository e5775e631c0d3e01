import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type * as z from 'zod';
import type { EndpointDefinition } from '../../shared/http/endpointChain.ts';

export type AnyEndpointDefinition = EndpointDefinition<z.ZodType>;

const FUNCTIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'functions');

/**
 * The endpoint definition of each handler module (input schema, access, field selection), which
 * buildEndpoint keeps on the handler it returns. Importing a handler evaluates its module only:
 * the stores create their clients on first use, so no AWS call or credential is involved.
 */
export async function loadEndpointDefinitions(modules: readonly string[]): Promise<Map<string, AnyEndpointDefinition>> {
  const definitions = new Map<string, AnyEndpointDefinition>();
  for (const module of modules) {
    const { handler } = (await import(pathToFileURL(join(FUNCTIONS_DIR, `${module}.ts`)).href)) as {
      handler?: { definition?: AnyEndpointDefinition };
    };
    const definition = handler?.definition;
    if (!definition) throw new Error(`functions/${module}.ts exports no handler built by defineEndpoint`);
    definitions.set(module, definition);
  }
  return definitions;
}
