/**
 * The web front end's AWS part (lib/webFrontEnd.ts) in a stack of its own, beside an HTTP API:
 * the private bucket and what is copied into it, the distribution's behaviours, the security
 * headers, and the function that gives Bugzilla's page addresses the app. How the Tracker stack
 * wires it (its output, the bootstrap's urlbase, cdk-nag) is checked in trackerStack.suite.ts
 * and cdkNag.suite.ts.
 */

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API_PATH_PATTERNS,
  BUGZILLA_PAGES,
  HSTS_MAX_AGE_SECONDS,
  PAGE_REWRITE_CODE,
  WebFrontEnd,
} from '../../lib/webFrontEnd.ts';
import {
  CONTENT_SECURITY_POLICY,
  HTML_CACHE_CONTROL,
  IMMUTABLE_CACHE_CONTROL,
  isApiPath,
  STRICT_TRANSPORT_SECURITY,
} from '../../shared/web/webHeaders.ts';
import { ADMIN_CGIS, parseRoute } from '../../web/src/lib/routes.ts';
import { type Json, referencedId, resourcesOfType, SYNTH_TIMEOUT } from './support/stackSynth.ts';

/** Managed policies' ids (AWS documentation: "Use managed cache policies", "managed origin request policies"). */
const CACHING_DISABLED = '4135ea2d-6df8-44a3-9df3-4b5a84be39ad';
const CACHING_OPTIMIZED = '658327ea-f89d-4fab-a63d-7e88639e58f6';
const ALL_VIEWER_EXCEPT_HOST_HEADER = 'b689b0a8-53d0-40ab-baf2-68738e2966ac';

let assetDirectory: string;
let template: Template;
let json: Json;
let web: WebFrontEnd;

beforeAll(() => {
  assetDirectory = fs.mkdtempSync(path.join(os.tmpdir(), 'tracker-web-dist-'));
  fs.writeFileSync(path.join(assetDirectory, 'index.html'), '<!doctype html><title>Tracker</title>\n');
  fs.writeFileSync(path.join(assetDirectory, 'app-ABCD1234.js'), 'export {};\n');
  const stack = new Stack(new App(), 'WebTest');
  const api = new HttpApi(stack, 'Api');
  web = new WebFrontEnd(stack, 'Web', { assetDirectory, api });
  template = Template.fromStack(stack);
  json = template.toJSON();
}, SYNTH_TIMEOUT);

afterAll(() => fs.rmSync(assetDirectory, { recursive: true, force: true }));

const distributionConfig = (): Json =>
  resourcesOfType(json, 'AWS::CloudFront::Distribution')[0][1].Properties.DistributionConfig;

describe('the bucket', () => {
  it('is private: no public access, TLS only, read by CloudFront through origin access control', () => {
    template.hasResourceProperties('AWS::S3::Bucket', {
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
    });
    expect(resourcesOfType(json, 'AWS::S3::Bucket')[0][1].Properties.WebsiteConfiguration).toBeUndefined();
    template.resourceCountIs('AWS::CloudFront::OriginAccessControl', 1);
    template.hasResourceProperties('AWS::CloudFront::OriginAccessControl', {
      OriginAccessControlConfig: { OriginAccessControlOriginType: 's3', SigningBehavior: 'always' },
    });
    const [s3Origin] = distributionConfig().Origins.filter((origin: Json) => origin.S3OriginConfig);
    expect(referencedId(s3Origin.OriginAccessControlId)).toBeDefined();
    // The bucket policy lets the distribution, and only it, read objects.
    const statements = resourcesOfType(json, 'AWS::S3::BucketPolicy').flatMap(
      ([, policy]) => policy.Properties.PolicyDocument.Statement as Json[],
    );
    const reads = statements.filter((statement) => statement.Effect === 'Allow');
    expect(reads).toHaveLength(1);
    expect(reads[0]).toMatchObject({
      Action: 's3:GetObject',
      Principal: { Service: 'cloudfront.amazonaws.com' },
      Condition: { StringEquals: { 'AWS:SourceArn': expect.anything() } },
    });
    expect(statements.some((statement) => statement.Effect === 'Deny' && statement.Condition?.Bool)).toBe(true);
  });

  it('gets the built app on every deploy: hashed assets cached a year and kept, index.html asked again', () => {
    const deployments = resourcesOfType(json, 'Custom::CDKBucketDeployment');
    expect(deployments).toHaveLength(2);
    const [assets, index] = web.deployments.map((deployment) =>
      deployments.find(([id]) => id.startsWith(`Web${deployment.node.id}`)),
    );
    expect(assets?.[1].Properties).toMatchObject({
      Prune: false,
      SystemMetadata: { 'cache-control': IMMUTABLE_CACHE_CONTROL },
    });
    expect(index?.[1].Properties).toMatchObject({
      Prune: false,
      SystemMetadata: { 'cache-control': HTML_CACHE_CONTROL },
    });
    // index.html only after the assets it names are there.
    expect([index?.[1].DependsOn].flat().some((id: string) => id?.startsWith('WebAssets'))).toBe(true);
  });

  it('refuses to build without the app (run `npm run build:web` first)', () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'tracker-web-empty-'));
    try {
      const stack = new Stack(new App(), 'NoWeb');
      expect(() => new WebFrontEnd(stack, 'Web', { assetDirectory: empty, api: new HttpApi(stack, 'Api') })).toThrow(
        /npm run build:web/,
      );
    } finally {
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe('the distribution', () => {
  it('serves the app from the bucket by default, over HTTPS, cached, compressed, with index.html at /', () => {
    const config = distributionConfig();
    expect(config.DefaultRootObject).toBe('index.html');
    expect(config.ViewerCertificate ?? { CloudFrontDefaultCertificate: true }).toBeDefined();
    expect(config.DefaultCacheBehavior).toMatchObject({
      ViewerProtocolPolicy: 'redirect-to-https',
      CachePolicyId: CACHING_OPTIMIZED,
      Compress: true,
      AllowedMethods: ['GET', 'HEAD'],
    });
  });

  it('sends /rest/*, /xmlrpc.cgi and /jsonrpc.cgi to the HTTP API: every method, every header but Host, nothing cached', () => {
    const config = distributionConfig();
    const behaviours: Json[] = config.CacheBehaviors;
    expect(behaviours.map((behaviour) => behaviour.PathPattern).sort()).toEqual([...API_PATH_PATTERNS].sort());
    const apiOrigin = config.Origins.find((origin: Json) => origin.CustomOriginConfig);
    expect(apiOrigin.CustomOriginConfig).toMatchObject({
      OriginProtocolPolicy: 'https-only',
      OriginSSLProtocols: ['TLSv1.2'],
    });
    expect(JSON.stringify(apiOrigin.DomainName)).toContain('execute-api');
    for (const behaviour of behaviours) {
      expect(behaviour, behaviour.PathPattern).toMatchObject({
        TargetOriginId: apiOrigin.Id,
        CachePolicyId: CACHING_DISABLED,
        OriginRequestPolicyId: ALL_VIEWER_EXCEPT_HOST_HEADER,
        ViewerProtocolPolicy: 'https-only',
        AllowedMethods: expect.arrayContaining(['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE']),
      });
      expect(behaviour.FunctionAssociations, behaviour.PathPattern).toBeUndefined();
    }
    // The patterns are exactly the paths the local emulator gives the API.
    for (const pattern of API_PATH_PATTERNS) expect(isApiPath(pattern.replace('*', 'bug')), pattern).toBe(true);
  });

  it('adds the security headers to every response: strict CSP without inline script, HSTS, frame-ancestors none', () => {
    const [[policyId, policy]] = resourcesOfType(json, 'AWS::CloudFront::ResponseHeadersPolicy');
    const security = policy.Properties.ResponseHeadersPolicyConfig.SecurityHeadersConfig;
    expect(security.ContentSecurityPolicy).toEqual({ ContentSecurityPolicy: CONTENT_SECURITY_POLICY, Override: true });
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
    expect(CONTENT_SECURITY_POLICY).not.toContain('unsafe-inline');
    expect(CONTENT_SECURITY_POLICY).toContain("frame-ancestors 'none'");
    expect(security.StrictTransportSecurity).toEqual({
      AccessControlMaxAgeSec: HSTS_MAX_AGE_SECONDS,
      IncludeSubdomains: true,
      Override: true,
    });
    expect(STRICT_TRANSPORT_SECURITY).toBe(`max-age=${HSTS_MAX_AGE_SECONDS}; includeSubDomains`);
    expect(security).toMatchObject({
      ContentTypeOptions: { Override: true },
      FrameOptions: { FrameOption: 'DENY', Override: true },
      ReferrerPolicy: { ReferrerPolicy: 'same-origin', Override: true },
    });
    const config = distributionConfig();
    for (const behaviour of [config.DefaultCacheBehavior, ...config.CacheBehaviors])
      expect(referencedId(behaviour.ResponseHeadersPolicyId), behaviour.PathPattern ?? 'default').toBe(policyId);
  });
});

describe("Bugzilla's page addresses", () => {
  /** The CloudFront Function's code, run as CloudFront runs it on a viewer request. */
  const rewrite = (uri: string): string => {
    const handler = new Function(`${PAGE_REWRITE_CODE}; return handler;`)();
    return handler({ request: { uri, querystring: {} } }).uri;
  };

  it('is the function on the viewer request of the default behaviour, on the JavaScript 2.0 runtime', () => {
    template.hasResourceProperties('AWS::CloudFront::Function', {
      FunctionCode: PAGE_REWRITE_CODE,
      FunctionConfig: { Runtime: 'cloudfront-js-2.0' },
    });
    const [association] = distributionConfig().DefaultCacheBehavior.FunctionAssociations;
    expect(association.EventType).toBe('viewer-request');
  });

  it('lists every .cgi address the app answers, so CloudFront gives each of them the app', () => {
    const answered = ['index', 'show_bug', 'buglist', 'query', 'enter_bug', 'attachment', 'userprefs', 'auth']
      .concat(['createaccount', 'token'], [...ADMIN_CGIS])
      .map((cgi) => `${cgi}.cgi`);
    for (const page of answered) expect(parseRoute(`/${page}`, '?id=1').page, page).not.toBe('notfound');
    expect([...BUGZILLA_PAGES].sort()).toEqual([...new Set(answered)].sort());
  });

  it.each(BUGZILLA_PAGES)('gives /%s the app', (page) => {
    expect(rewrite(`/${page}`)).toBe('/index.html');
  });

  it('gives any other address without an extension the app, and leaves files alone', () => {
    expect(rewrite('/login')).toBe('/index.html');
    expect(rewrite('/bug/12')).toBe('/index.html');
    expect(rewrite('/')).toBe('/index.html');
    expect(rewrite('/app-ABCD1234.js')).toBe('/app-ABCD1234.js');
    expect(rewrite('/favicon.ico')).toBe('/favicon.ico');
    expect(rewrite('/index.html')).toBe('/index.html');
  });
});
