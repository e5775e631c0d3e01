/**
 * A Lambda proxy integration (payload 2.0) for the HTTP API that grants API Gateway one invoke
 * permission per function, whatever the number of routes the integration serves.
 *
 * Why not `HttpLambdaIntegration`: by default it adds one `AWS::Lambda::Permission` per route,
 * which at ~120 routes alone would take a quarter of CloudFormation's 500-resource budget. Its
 * `scopePermissionToRoute: false` mode adds one per function, but its source ARN has three
 * wildcard segments after the API id (stage, method, path), which does not match the
 * `<api>/<stage>/$default` source ARN of the `$default` route: the catch-all would answer 500
 * instead of Bugzilla's error.
 * This integration allows `<api>/*`: any stage, method and route of this one API, `$default`
 * included, and nothing from any other API.
 */
import { Stack } from 'aws-cdk-lib';
import {
  HttpIntegrationType,
  HttpRouteIntegration,
  type HttpRouteIntegrationBindOptions,
  type HttpRouteIntegrationConfig,
  PayloadFormatVersion,
} from 'aws-cdk-lib/aws-apigatewayv2';
import * as iam from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';

/** Construct id (under the function) of the function's one API Gateway invoke permission. */
export const API_INVOKE_PERMISSION_ID = 'ApiInvokePermission';

/**
 * Share one instance across all routes of a function (GET and HEAD of a path, several paths of a
 * module): CDK then creates one `AWS::ApiGatewayV2::Integration` for it, and this class one
 * permission.
 */
export class ApiLambdaIntegration extends HttpRouteIntegration {
  private permissionGranted = false;

  /**
   * @param id id of the underlying `HttpIntegration` construct
   * @param fn the function every route of this integration invokes
   */
  constructor(
    id: string,
    private readonly fn: IFunction,
  ) {
    super(id);
  }

  override bind(_options: HttpRouteIntegrationBindOptions): HttpRouteIntegrationConfig {
    return {
      type: HttpIntegrationType.AWS_PROXY,
      uri: this.fn.functionArn,
      payloadFormatVersion: PayloadFormatVersion.VERSION_2_0,
    };
  }

  /** Runs for every route bound; grants on the first. (CDK refuses to bind one integration to two APIs.) */
  protected override completeBind(options: HttpRouteIntegrationBindOptions): void {
    if (this.permissionGranted) return;
    this.permissionGranted = true;
    this.fn.addPermission(API_INVOKE_PERMISSION_ID, {
      principal: new iam.ServicePrincipal('apigateway.amazonaws.com'),
      sourceArn: Stack.of(options.route).formatArn({
        service: 'execute-api',
        resource: options.route.httpApi.apiId,
        resourceName: '*',
      }),
    });
  }
}
