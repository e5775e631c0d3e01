/**
 * Single sign-on on AWS (docs/operations.md, "Single sign-on"): the environment of the sign-in
 * functions (functions/oidc/), and, with `-c oidc=cognito`, the Cognito user pool that is the
 * issuer: the pool, Tracker's app client and the pool's sign-in domain.
 *
 * The Cognito app client is a public client (no secret): the sign-in functions exchange the code
 * with the PKCE verifier the browser made, which binds the code to that browser as a secret
 * would bind it to the client, and the stack needs no custom resource to copy a generated
 * secret into Secrets Manager. An issuer of the team's own may give a secret
 * (`oidcClientSecretName`); the functions read it from Secrets Manager, never from the template.
 */
import { Aws, Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import { Construct } from 'constructs';
import { CALLBACK_PATH, SINGLE_SIGN_ON_ENV } from '../shared/domain/identity/singleSignOn.ts';
import { secretArnOf } from './notifications.ts';
import type { SingleSignOnSetting } from './stackSettings.ts';

/** The handler modules that get the environment (shared/routes.ts, `oidc/…`). */
export const SINGLE_SIGN_ON_MODULES = ['oidc/signInOptions', 'oidc/startSignIn', 'oidc/finishSignIn'] as const;
/** The modules that talk to the issuer, and so may read its client secret. */
export const ISSUER_CLIENT_MODULES = ['oidc/startSignIn', 'oidc/finishSignIn'] as const;

/** The callback page of the web app at `webUrl` (with its trailing slash). */
export const callbackUrlOf = (webUrl: string): string => `${webUrl}${CALLBACK_PATH.slice(1)}`;

/** The client secret's ARN for the policy, when the setting names one. */
export function clientSecretArnOf(scope: Construct, setting: SingleSignOnSetting | undefined): string | undefined {
  return setting?.kind === 'issuer' && setting.clientSecretName
    ? secretArnOf(scope, setting.clientSecretName)
    : undefined;
}

export interface SingleSignOnProps {
  setting: SingleSignOnSetting;
  /** The web app's origin with a trailing slash (WebFrontEnd.url). */
  webUrl: string;
}

export class SingleSignOn extends Construct {
  readonly userPool?: cognito.UserPool;
  readonly client?: cognito.UserPoolClient;
  readonly domain?: cognito.UserPoolDomain;
  /** What the sign-in functions are given. */
  readonly environment: Record<string, string>;

  constructor(scope: Construct, id: string, props: SingleSignOnProps) {
    super(scope, id);
    const { setting } = props;
    const callbackUrl = callbackUrlOf(props.webUrl);
    if (setting.kind === 'issuer') {
      const secretArn = clientSecretArnOf(this, setting);
      this.environment = {
        [SINGLE_SIGN_ON_ENV.issuer]: setting.issuer,
        [SINGLE_SIGN_ON_ENV.clientId]: setting.clientId,
        ...(secretArn ? { [SINGLE_SIGN_ON_ENV.clientSecretArn]: secretArn } : {}),
        [SINGLE_SIGN_ON_ENV.redirectUri]: callbackUrl,
        [SINGLE_SIGN_ON_ENV.providerName]: setting.providerName,
      };
      return;
    }

    // People are added by an administrator (the console, or `aws cognito-idp admin-create-user`),
    // who gets their address verified by the invitation; nobody signs up on their own here.
    this.userPool = new cognito.UserPool(this, 'UserPool', {
      userPoolName: `${Stack.of(this).stackName}-people`,
      selfSignUpEnabled: false,
      signInAliases: { email: true },
      autoVerify: { email: true },
      standardAttributes: { email: { required: true, mutable: true }, fullname: { required: false, mutable: true } },
      accountRecovery: cognito.AccountRecovery.EMAIL_ONLY,
      passwordPolicy: {
        minLength: 12,
        requireLowercase: true,
        requireUppercase: true,
        requireDigits: true,
        requireSymbols: true,
        tempPasswordValidity: Duration.days(7),
      },
      // A second factor by an authenticator app for everyone: this pool guards private bugs.
      mfa: cognito.Mfa.REQUIRED,
      mfaSecondFactor: { otp: true, sms: false },
      featurePlan: cognito.FeaturePlan.ESSENTIALS,
      deletionProtection: true,
      // The people in it are data: a deleted stack leaves the pool.
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.client = this.userPool.addClient('TrackerClient', {
      userPoolClientName: 'Tracker',
      generateSecret: false,
      authFlows: { userSrp: true },
      oAuth: {
        flows: { authorizationCodeGrant: true },
        scopes: [cognito.OAuthScope.OPENID, cognito.OAuthScope.EMAIL, cognito.OAuthScope.PROFILE],
        callbackUrls: [callbackUrl],
      },
      supportedIdentityProviders: [cognito.UserPoolClientIdentityProvider.COGNITO],
      preventUserExistenceErrors: true,
      // Tracker issues its own login token at sign-in; Cognito's tokens are only read once.
      idTokenValidity: Duration.minutes(5),
      accessTokenValidity: Duration.minutes(5),
      refreshTokenValidity: Duration.hours(1),
    });
    const stackPart = Stack.of(this)
      .stackName.toLowerCase()
      .replace(/[^a-z0-9-]/g, '-')
      .slice(0, 30);
    this.domain = this.userPool.addDomain('SignInDomain', {
      cognitoDomain: { domainPrefix: setting.domainPrefix ?? `tracker-${stackPart}-${Aws.ACCOUNT_ID}` },
    });
    this.environment = {
      // The pool's issuer, as its discovery document and ID tokens name it.
      [SINGLE_SIGN_ON_ENV.issuer]: `https://cognito-idp.${Aws.REGION}.${Aws.URL_SUFFIX}/${this.userPool.userPoolId}`,
      [SINGLE_SIGN_ON_ENV.clientId]: this.client.userPoolClientId,
      [SINGLE_SIGN_ON_ENV.redirectUri]: callbackUrl,
      [SINGLE_SIGN_ON_ENV.providerName]: setting.providerName,
    };
  }
}
