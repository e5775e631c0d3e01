import { ERROR_CATALOG } from '../../shared/errors.ts';
import { httpStatusForCode, INTERNAL_ERROR } from '../../shared/trackerError.ts';
import { type JsonSchema, ref } from './jsonSchema.ts';

/** Bugzilla's title of each code (some codes have several names in the registry, all with one title). */
const titleOf = new Map<number, string>(Object.values(ERROR_CATALOG).map(({ code, title }) => [code, title]));

export const ALL_ERROR_CODES: readonly number[] = [...titleOf.keys()].sort((a, b) => a - b);

/**
 * The one error envelope every route answers (shared/http/middleware/errorEnvelope.ts), with
 * every code of the registry and the HTTP status each code travels with.
 */
export function errorSchema(): JsonSchema {
  const statuses = [...new Set(ALL_ERROR_CODES.map(httpStatusForCode))].sort((a, b) => a - b);
  const table = ALL_ERROR_CODES.map((code) => `${code} (HTTP ${httpStatusForCode(code)}): ${titleOf.get(code)}`);
  return {
    type: 'object',
    description: [
      "Bugzilla's error envelope. The HTTP status follows from the code (shared/trackerError.ts):",
      `statuses used: ${statuses.join(', ')}.`,
      `Codes: ${table.join('; ')}.`,
    ].join(' '),
    properties: {
      error: { const: true },
      code: { type: 'integer', enum: [...ALL_ERROR_CODES] },
      message: { type: 'string' },
      documentation: { type: 'string', format: 'uri', description: "Bugzilla's API documentation." },
      request_id: {
        type: 'string',
        description: `Only with code ${INTERNAL_ERROR}: the id under which the failure was logged.`,
      },
    },
    required: ['error', 'code', 'message'],
    additionalProperties: false,
  };
}

/**
 * Routes' error answers by HTTP status, each narrowed to the codes that status carries for the
 * route. Many routes share a set (every storeless route, every catalogue edit…), so each set is
 * one entry of `components/responses` (`Error404_51_101`) that the routes refer to.
 */
export class ErrorResponses {
  private readonly shared = new Map<string, JsonSchema>();

  forCodes(codes: readonly number[]): Record<string, JsonSchema> {
    const byStatus = new Map<number, number[]>();
    for (const code of codes) {
      const status = httpStatusForCode(code);
      byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
    }
    const responses: Record<string, JsonSchema> = {};
    for (const [status, statusCodes] of byStatus) {
      const name = `Error${status}_${statusCodes.join('_')}`;
      this.shared.set(name, {
        description: `Bugzilla error ${statusCodes.join(', ')} (titles in the Error schema).`,
        content: {
          'application/json': {
            schema: { allOf: [ref('Error'), { properties: { code: { enum: statusCodes } } }] },
          },
        },
      });
      responses[String(status)] = { $ref: `#/components/responses/${name}` };
    }
    return responses;
  }

  /** Every set some route referred to. */
  components(): Record<string, JsonSchema> {
    return Object.fromEntries(this.shared);
  }
}
