/**
 * The API's functions, grouped into one nested stack per feature family, so that no template
 * comes near CloudFormation's 500-resource limit however many endpoints are added: one function
 * per endpoint stays the design (each with its own permissions), only where its resources are
 * declared changes.
 *
 * A family's nested stack holds, per handler module, the function, its API Gateway integration
 * and its one invoke permission. Everything with data, and everything clients or operators hold
 * on to, stays in the root stack under its old logical id: the table, the bucket, the key, the
 * secret, the HTTP API with its stage and routes, the shared execution roles and the log group.
 * The routes stay there too, so that a stack deployed before the split is updated in place: each
 * route's target moves to the new integration (an update, not a replacement; API Gateway refuses
 * a second route with the same key, so routes could not be re-created in a nested stack in the
 * same deploy), and the old functions and integrations are deleted once nothing uses them.
 */
import { NestedStack, Stack } from 'aws-cdk-lib';
import {
  HttpIntegration,
  HttpIntegrationType,
  HttpRouteIntegration,
  type HttpRouteIntegrationBindOptions,
  type HttpRouteIntegrationConfig,
  type IHttpApi,
  PayloadFormatVersion,
} from 'aws-cdk-lib/aws-apigatewayv2';
import * as iam from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { Construct } from 'constructs';
import { constructIdFor, type HandlerPlan } from './handlerPlan.ts';

/**
 * Feature family of each first segment of a handler module (`bug/getBug` -> `Bugs`). A segment
 * not listed gets a family of its own, named after it (`accounts/…` -> `Accounts`), so a new
 * feature needs no change here. Changing a module's family replaces its function (not its
 * routes), which is harmless: functions hold no data.
 */
export const FEATURE_FAMILIES: Readonly<Record<string, string>> = {
  bug: 'Bugs',
  comment: 'Bugs',
  attachment: 'Bugs',
  rpc: 'Rpc',
  user: 'Accounts',
  account: 'Accounts',
  group: 'Accounts',
  product: 'Catalog',
  classification: 'Catalog',
  component: 'Catalog',
  field: 'Fields',
  keyword: 'Fields',
  flagType: 'Fields',
  instance: 'Instance',
  platform: 'Instance',
};

/**
 * Construct id (under the function) of the function's one API Gateway invoke permission.
 *
 * One per function, whatever the number of routes it serves: CDK's `HttpLambdaIntegration` adds
 * one `AWS::Lambda::Permission` per route by default, and in its `scopePermissionToRoute: false`
 * mode a source ARN with three wildcard segments after the API id (stage, method, path), which
 * does not match the `<api>/<stage>/$default` source ARN of the `$default` route: the catch-all
 * would answer 500 instead of Bugzilla's error. This permission allows `<api>/*`: any stage,
 * method and route of this one API, `$default` included, and nothing from any other API.
 */
export const API_INVOKE_PERMISSION_ID = 'ApiInvokePermission';

/** The feature family of a handler module. */
export function featureFamilyOf(module: string): string {
  const segment = module.split('/')[0];
  return FEATURE_FAMILIES[segment] ?? constructIdFor(segment);
}

/** Construct id of a family's nested stack (its logical id in the root template derives from it). */
export const featureStackId = (family: string): string => `${family}Functions`;

export interface FeatureStackProps {
  family: string;
  plans: readonly HandlerPlan[];
  /** The root stack's HTTP API: this stack's integrations and permissions are made for it. */
  api: IHttpApi;
  /** Creates the function of a plan in the given scope (this nested stack). */
  createFunction: (scope: Construct, plan: HandlerPlan) => NodejsFunction;
}

/** One feature family's functions, their integrations and their invoke permissions. */
export class FeatureStack extends NestedStack {
  readonly family: string;
  /** Handler module -> its function. */
  readonly functions = new Map<string, NodejsFunction>();
  /** Handler module -> what the root stack's routes point at. */
  readonly routeIntegrations = new Map<string, NestedLambdaIntegration>();

  constructor(scope: Construct, id: string, props: FeatureStackProps) {
    super(scope, id, { description: `Tracker: the ${props.family} functions of the API` });
    this.family = props.family;
    for (const plan of props.plans) {
      const fn = props.createFunction(this, plan);
      this.functions.set(plan.module, fn);
      const integration = new HttpIntegration(this, `${fn.node.id}Integration`, {
        httpApi: props.api,
        integrationType: HttpIntegrationType.AWS_PROXY,
        integrationUri: fn.functionArn,
        payloadFormatVersion: PayloadFormatVersion.VERSION_2_0,
      });
      // Any stage, method and route of this one API, `$default` included (API_INVOKE_PERMISSION_ID).
      fn.addPermission(API_INVOKE_PERMISSION_ID, {
        principal: new iam.ServicePrincipal('apigateway.amazonaws.com'),
        sourceArn: Stack.of(this).formatArn({
          service: 'execute-api',
          resource: props.api.apiId,
          resourceName: '*',
        }),
      });
      this.routeIntegrations.set(plan.module, new NestedLambdaIntegration(integration, fn));
    }
  }
}

/**
 * A route integration that already exists (in a feature stack): the routes of the root stack's
 * HTTP API point at it, whatever stack it is declared in, instead of CDK creating one under the
 * API as `HttpRouteIntegration` does.
 */
export class NestedLambdaIntegration extends HttpRouteIntegration {
  constructor(
    /** The integration, in its feature stack. */
    readonly target: HttpIntegration,
    readonly fn: IFunction,
  ) {
    super(target.node.id);
  }

  override bind(_options: HttpRouteIntegrationBindOptions): HttpRouteIntegrationConfig {
    return {
      type: HttpIntegrationType.AWS_PROXY,
      uri: this.fn.functionArn,
      payloadFormatVersion: PayloadFormatVersion.VERSION_2_0,
    };
  }

  override _bindToRoute(_options: HttpRouteIntegrationBindOptions): { readonly integrationId: string } {
    return { integrationId: this.target.integrationId };
  }
}
