/**
 * How clients reach the HTTP API, from the deployment settings: the custom domain (which then
 * is the only way in: the execute-api endpoint is disabled), CORS for the origins a deployment
 * names, and the default stage's throttling and JSON access log.
 */
import { Duration } from 'aws-cdk-lib';
import {
  type CfnStage,
  CorsHttpMethod,
  DomainName,
  type HttpApi,
  type HttpApiProps,
  SecurityPolicy,
} from 'aws-cdk-lib/aws-apigatewayv2';
import * as acm from 'aws-cdk-lib/aws-certificatemanager';
import type * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { CORS_ALLOWED_HEADERS, CORS_EXPOSED_HEADERS } from '../shared/http/corsHeaders.ts';
import type { StackSettings } from './stackSettings.ts';

export { CORS_ALLOWED_HEADERS, CORS_EXPOSED_HEADERS } from '../shared/http/corsHeaders.ts';

export const CORS_MAX_AGE = Duration.minutes(10);

/**
 * One JSON object per request. Never the query string: Bugzilla clients may put `api_key`,
 * `Bugzilla_password` or a token there. `integrationRequestId` is the Lambda request id, which
 * every line of the function's own log carries.
 */
export const ACCESS_LOG_FORMAT: Readonly<Record<string, string>> = {
  requestId: '$context.requestId',
  time: '$context.requestTime',
  ip: '$context.identity.sourceIp',
  userAgent: '$context.identity.userAgent',
  method: '$context.httpMethod',
  routeKey: '$context.routeKey',
  path: '$context.path',
  protocol: '$context.protocol',
  status: '$context.status',
  responseLength: '$context.responseLength',
  responseLatency: '$context.responseLatency',
  integrationRequestId: '$context.integration.requestId',
  integrationStatus: '$context.integration.status',
  integrationLatency: '$context.integration.latency',
  integrationError: '$context.integration.error',
  error: '$context.error.message',
  domainName: '$context.domainName',
};

export interface ApiEndpoint {
  /** HttpApi properties that follow from the settings: CORS, custom domain, execute-api endpoint. */
  props: Partial<HttpApiProps>;
  /** The custom domain, when there is one: its DNS target goes in the outputs. */
  domainName?: DomainName;
}

export function apiEndpoint(scope: Construct, settings: StackSettings): ApiEndpoint {
  const props: { -readonly [K in keyof HttpApiProps]?: HttpApiProps[K] } = {};
  let domainName: DomainName | undefined;
  if (settings.corsOrigins.length > 0) {
    // API Gateway then answers preflights itself and sets these headers on every response,
    // replacing the functions' own `Access-Control-Allow-Origin: *`.
    props.corsPreflight = {
      allowOrigins: [...settings.corsOrigins],
      allowMethods: [CorsHttpMethod.ANY],
      allowHeaders: [...CORS_ALLOWED_HEADERS],
      exposeHeaders: [...CORS_EXPOSED_HEADERS],
      maxAge: CORS_MAX_AGE,
      // Credentials travel in headers (API keys, tokens), never in cookies.
      allowCredentials: false,
    };
  }
  if (settings.customDomain) {
    domainName = new DomainName(scope, 'ApiDomain', {
      domainName: settings.customDomain.domainName,
      certificate: acm.Certificate.fromCertificateArn(scope, 'ApiCertificate', settings.customDomain.certificateArn),
      securityPolicy: SecurityPolicy.TLS_1_2,
    });
    props.defaultDomainMapping = { domainName };
    // One address for clients, the one the certificate names; the generated one would bypass it.
    props.disableExecuteApiEndpoint = true;
  }
  return { props, domainName };
}

/** The API's base URL for clients (`…/rest` is appended by the caller). */
export function apiBaseUrl(api: HttpApi, settings: StackSettings): string {
  if (settings.customDomain) return `https://${settings.customDomain.domainName}/`;
  if (!api.url) throw new Error('The HTTP API has no default stage');
  return api.url;
}

/** Throttling and the JSON access log on the default stage. */
export function configureDefaultStage(api: HttpApi, settings: StackSettings, accessLogs: logs.ILogGroup): void {
  const stage = api.defaultStage?.node.defaultChild as CfnStage | undefined;
  if (!stage) throw new Error('The HTTP API has no default stage');
  // Stage-wide throttling: a runaway script gets HTTP 429 from API Gateway instead of using up
  // the account's Lambda concurrency and DynamoDB capacity. Tunable per deployment.
  stage.defaultRouteSettings = {
    throttlingRateLimit: settings.apiRateLimit,
    throttlingBurstLimit: settings.apiBurstLimit,
  };
  stage.accessLogSettings = {
    destinationArn: accessLogs.logGroupArn,
    format: JSON.stringify(ACCESS_LOG_FORMAT),
  };
}
