/**
 * The web front end on AWS: the built app (web/dist, `npm run build:web`) in a private S3 bucket
 * behind a CloudFront distribution, which also sends the API's paths to the HTTP API, so that the
 * page and the API share one origin (the app calls /rest on its own origin; `urlbase` is that
 * origin). Locally, local/webFiles.ts serves the same files with the same headers
 * (shared/web/webHeaders.ts).
 *
 * - The bucket is reached only through the distribution's origin access control (no public
 *   access, no website hosting); files are copied in at deploy time, the hashed assets cached for
 *   a year, index.html asked again every time.
 * - Every response carries the security headers: a Content-Security-Policy without inline script,
 *   HSTS, frame-ancestors 'none', nosniff, a same-origin referrer policy.
 * - /rest/*, /xmlrpc.cgi and /jsonrpc.cgi go to the HTTP API with every viewer header but Host
 *   (the credential headers, Accept-Encoding, conditional requests), every query string, and
 *   nothing cached.
 * - Bugzilla's page addresses (show_bug.cgi, buglist.cgi, ...) and any other address that is not
 *   a file get the app's index.html (a CloudFront Function on the viewer request), as the app
 *   reads the address itself.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Aws, Duration, RemovalPolicy } from 'aws-cdk-lib';
import type { IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as s3deploy from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import {
  CONTENT_SECURITY_POLICY,
  HTML_CACHE_CONTROL,
  IMMUTABLE_CACHE_CONTROL,
  WEB_SECURITY_HEADERS,
} from '../shared/web/webHeaders.ts';

/** The paths CloudFront sends to the HTTP API (shared/web/webHeaders.ts `isApiPath`). */
export const API_PATH_PATTERNS = ['/rest', '/rest/*', '/xmlrpc.cgi', '/jsonrpc.cgi'] as const;

/** Bugzilla's page addresses, which the app answers (bookmarks and links from mail keep working). */
export const BUGZILLA_PAGES = [
  'index.cgi',
  'show_bug.cgi',
  'buglist.cgi',
  'query.cgi',
  'enter_bug.cgi',
  'attachment.cgi',
  'userprefs.cgi',
  'auth.cgi',
  'createaccount.cgi',
  'token.cgi',
  // The administration pages and reports (web/src/lib/routes.ts ADMIN_CGIS).
  'admin.cgi',
  'editusers.cgi',
  'editgroups.cgi',
  'editkeywords.cgi',
  'editparams.cgi',
  'editproducts.cgi',
  'editcomponents.cgi',
  'editversions.cgi',
  'editmilestones.cgi',
  'editclassifications.cgi',
  'editgroupcontrols.cgi',
  'editflagtypes.cgi',
  'editvalues.cgi',
  'editworkflow.cgi',
  'editfields.cgi',
  'report.cgi',
  'chart.cgi',
  'showdependencytree.cgi',
] as const;

/** HSTS as CloudFront sends it (shared/web/webHeaders.ts `STRICT_TRANSPORT_SECURITY`). */
export const HSTS_MAX_AGE_SECONDS = 31_536_000;

/** The file every page address is answered with. */
export const INDEX_DOCUMENT = 'index.html';

/** Server access logs of the web bucket, in the stack's access log bucket. */
export const WEB_ACCESS_LOG_PREFIX = 'web-bucket/';

/**
 * The viewer-request function of the app's behaviour (CloudFront Functions, JavaScript runtime
 * 2.0): a Bugzilla page, or any address whose last segment has no extension, becomes
 * /index.html; a file (`/app-4F2K.js`, `/favicon.ico`) is asked for as it is. Kept to what the
 * runtime has (no modules, no `URL`).
 */
export const PAGE_REWRITE_CODE = `function handler(event) {
  var request = event.request;
  var uri = request.uri;
  var last = uri.substring(uri.lastIndexOf('/') + 1);
  var pages = ${JSON.stringify(BUGZILLA_PAGES)};
  if (pages.indexOf(last) >= 0 || last.indexOf('.') < 0) request.uri = '/${INDEX_DOCUMENT}';
  return request;
}
`;

export interface WebFrontEndProps {
  /**
   * The built app: a directory holding index.html and the assets it names (`npm run build:web`
   * writes web/dist). Copied to the bucket on every deploy.
   */
  assetDirectory: string;
  /** The HTTP API the API paths go to. */
  api: IHttpApi;
  /**
   * The API's own host name when its execute-api endpoint is disabled (a custom domain,
   * apiEndpoint.ts); by default the API's execute-api host in the stack's region.
   */
  apiDomainName?: string;
  /** Where the web bucket's server access logs go (the stack's access log bucket). */
  accessLogBucket?: s3.IBucket;
}

export class WebFrontEnd extends Construct {
  /** The app's files; private, read by CloudFront only. */
  readonly bucket: s3.Bucket;
  readonly distribution: cloudfront.Distribution;
  /** Security headers of every response. */
  readonly responseHeaders: cloudfront.ResponseHeadersPolicy;
  /** Rewrites page addresses to index.html. */
  readonly pageRewrite: cloudfront.Function;
  /** The copies of the app into the bucket: assets first, then index.html. */
  readonly deployments: s3deploy.BucketDeployment[];

  constructor(scope: Construct, id: string, props: WebFrontEndProps) {
    super(scope, id);
    if (!fs.existsSync(path.join(props.assetDirectory, INDEX_DOCUMENT)))
      throw new Error(`No ${INDEX_DOCUMENT} in ${props.assetDirectory}: run \`npm run build:web\` first`);

    this.bucket = new s3.Bucket(this, 'Bucket', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      serverAccessLogsBucket: props.accessLogBucket,
      serverAccessLogsPrefix: props.accessLogBucket ? WEB_ACCESS_LOG_PREFIX : undefined,
      // Built files only, rebuilt by any deploy: nothing to keep, but CloudFormation cannot delete
      // a bucket with objects in it, so a deleted stack leaves it (as it leaves the data).
      removalPolicy: RemovalPolicy.RETAIN,
    });

    const customHeaders = Object.entries(WEB_SECURITY_HEADERS)
      .filter(
        ([name]) =>
          !['content-security-policy', 'x-content-type-options', 'x-frame-options', 'referrer-policy'].includes(
            name.toLowerCase(),
          ),
      )
      .map(([header, value]) => ({ header, value, override: true }));
    this.responseHeaders = new cloudfront.ResponseHeadersPolicy(this, 'SecurityHeaders', {
      comment: 'Tracker: security headers of the web app and the API',
      securityHeadersBehavior: {
        contentSecurityPolicy: { contentSecurityPolicy: CONTENT_SECURITY_POLICY, override: true },
        strictTransportSecurity: {
          accessControlMaxAge: Duration.seconds(HSTS_MAX_AGE_SECONDS),
          includeSubdomains: true,
          override: true,
        },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: cloudfront.HeadersFrameOption.DENY, override: true },
        referrerPolicy: { referrerPolicy: cloudfront.HeadersReferrerPolicy.SAME_ORIGIN, override: true },
      },
      customHeadersBehavior: customHeaders.length > 0 ? { customHeaders } : undefined,
    });

    this.pageRewrite = new cloudfront.Function(this, 'PageRewrite', {
      comment: 'Tracker: Bugzilla page addresses and app routes get index.html',
      code: cloudfront.FunctionCode.fromInline(PAGE_REWRITE_CODE),
      runtime: cloudfront.FunctionRuntime.JS_2_0,
    });

    const apiOrigin = new origins.HttpOrigin(
      props.apiDomainName ?? `${props.api.apiId}.execute-api.${Aws.REGION}.${Aws.URL_SUFFIX}`,
      {
        protocolPolicy: cloudfront.OriginProtocolPolicy.HTTPS_ONLY,
        originSslProtocols: [cloudfront.OriginSslPolicy.TLS_V1_2],
      },
    );
    const apiBehavior: cloudfront.BehaviorOptions = {
      origin: apiOrigin,
      viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.HTTPS_ONLY,
      allowedMethods: cloudfront.AllowedMethods.ALLOW_ALL,
      // Nothing cached: every answer depends on the caller. The managed origin request policy for
      // API Gateway forwards every viewer header but Host (API keys, Authorization, tokens,
      // Accept-Encoding, If-None-Match), every query string and every cookie.
      cachePolicy: cloudfront.CachePolicy.CACHING_DISABLED,
      originRequestPolicy: cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
      responseHeadersPolicy: this.responseHeaders,
      // The API compresses its own answers (as Accept-Encoding asks).
      compress: false,
    };

    this.distribution = new cloudfront.Distribution(this, 'Distribution', {
      comment: 'Tracker: web app and API on one origin',
      defaultRootObject: INDEX_DOCUMENT,
      httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
      priceClass: cloudfront.PriceClass.PRICE_CLASS_100,
      defaultBehavior: {
        origin: origins.S3BucketOrigin.withOriginAccessControl(this.bucket),
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        allowedMethods: cloudfront.AllowedMethods.ALLOW_GET_HEAD,
        cachePolicy: cloudfront.CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: this.responseHeaders,
        compress: true,
        functionAssociations: [{ function: this.pageRewrite, eventType: cloudfront.FunctionEventType.VIEWER_REQUEST }],
      },
      additionalBehaviors: Object.fromEntries(API_PATH_PATTERNS.map((pattern) => [pattern, apiBehavior])),
    });

    // Hashed assets first, with a year's caching, kept from deploy to deploy (a page loaded
    // before a deploy still finds its script); then index.html, asked again every time.
    const assets = new s3deploy.BucketDeployment(this, 'Assets', {
      sources: [s3deploy.Source.asset(props.assetDirectory, { exclude: [INDEX_DOCUMENT] })],
      destinationBucket: this.bucket,
      cacheControl: [s3deploy.CacheControl.fromString(IMMUTABLE_CACHE_CONTROL)],
      prune: false,
      memoryLimit: 256,
    });
    const index = new s3deploy.BucketDeployment(this, 'Index', {
      sources: [s3deploy.Source.asset(props.assetDirectory, { exclude: ['*', `!${INDEX_DOCUMENT}`] })],
      destinationBucket: this.bucket,
      cacheControl: [s3deploy.CacheControl.fromString(HTML_CACHE_CONTROL)],
      prune: false,
      memoryLimit: 256,
    });
    index.node.addDependency(assets);
    this.deployments = [assets, index];
  }

  /** The origin the page and the API share, with a trailing slash (what `urlbase` holds). */
  get url(): string {
    return `https://${this.distribution.distributionDomainName}/`;
  }
}
