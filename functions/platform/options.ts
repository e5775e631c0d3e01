import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { CORS_ALLOWED_HEADERS } from '../../shared/http/corsHeaders.ts';
import { COMMON_HEADERS } from '../../shared/http/middleware/formatResponse.ts';
import { RouteMatcher } from '../../shared/http/routeMatcher.ts';
import { routes } from '../../shared/routes.ts';
import { handler as notFound } from './notFound.ts';

const matcher = new RouteMatcher(routes);

const ALLOWED_HEADERS = CORS_ALLOWED_HEADERS.join(', ');

/** `OPTIONS` on any path of the table: 200 with `Allow` (and what a CORS preflight needs). */
export const handler = async (event: APIGatewayProxyEventV2, context: Parameters<typeof notFound>[1]) => {
  const allowed = matcher.allowedMethods(event.rawPath);
  if (allowed.length === 0) return notFound(event, context);
  const methods = allowed.join(', ');
  return {
    statusCode: 200,
    headers: {
      ...COMMON_HEADERS,
      Allow: methods,
      'Access-Control-Allow-Methods': methods,
      'Access-Control-Allow-Headers': ALLOWED_HEADERS,
      'Access-Control-Max-Age': '600',
      'Content-Type': 'application/json; charset=UTF-8',
    },
    body: '',
  };
};
