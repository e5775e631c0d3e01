import { subscribe } from 'node:diagnostics_channel';
import type { ClientRequest } from 'node:http';
import { requestLocal } from '../runtime/requestScope.ts';

/**
 * DynamoDB calls of the current request, counted the way `npm run bench` counts them
 * (bench/server.ts): from Node's http client diagnostics channel, by the `X-Amz-Target` header
 * that every DynamoDB API call carries. No store code takes part, and a retry counts as the call
 * it is. The channel reports each call in the async context of the code that made it, so the
 * count lands in that request's scope (runtime/requestScope.ts); calls outside a request go uncounted.
 */
const COUNTER = 'observability.dynamodbCalls';

interface CallCounter {
  calls: number;
}

const counter = () => requestLocal<CallCounter>(COUNTER, () => ({ calls: 0 }));

/** The DynamoDB operation (`GetItem`, `Query`...) of an http request, or undefined if it is not a DynamoDB call. */
export function dynamodbOperation(request: ClientRequest): string | undefined {
  const target = request.getHeader('x-amz-target');
  return typeof target === 'string' && target.startsWith('DynamoDB_')
    ? target.slice(target.indexOf('.') + 1)
    : undefined;
}

subscribe('http.client.request.start', (message) => {
  if (dynamodbOperation((message as { request: ClientRequest }).request) === undefined) return;
  const current = counter();
  if (current) current.calls++;
});

export const dynamodbCallsOfRequest = (): number => counter()?.calls ?? 0;
