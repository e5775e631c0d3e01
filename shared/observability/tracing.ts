import type { MiddlewareObj } from '@middy/core';

/**
 * X-Ray tracing with Powertools' Tracer, when TRACKER_TRACING is `on` (off by default). The tracer
 * brings the X-Ray SDK, about 125 KiB of every bundle and its load time, so it is not imported
 * otherwise: the deployed bundles get the switch when they are built (lib/trackerFunction.ts
 * BUNDLING `define`), and with it off esbuild drops this import, so no bundle carries the SDK.
 * Where it is on, the tracer loads during the function's init, beside the rest of the bundle, and
 * the first request waits for it if it is not ready.
 */
const tracerLoading = process.env.TRACKER_TRACING === 'on' ? import('./xrayTracer.ts') : undefined;

/** The middleware that traces each invocation: none unless tracing is on. */
export function tracing(): MiddlewareObj[] {
  if (!tracerLoading) return [];
  const middleware = tracerLoading.then(({ tracerMiddleware }) => tracerMiddleware());
  return [
    {
      before: async (request) => {
        await (await middleware).before?.(request);
      },
      after: async (request) => {
        await (await middleware).after?.(request);
      },
      onError: async (request) => {
        await (await middleware).onError?.(request);
      },
    },
  ];
}
