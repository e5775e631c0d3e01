/**
 * Single sign-on in the template (lib/singleSignOn.ts): with `-c oidc=cognito` a user pool, its
 * app client (code flow, PKCE, the web app's callback) and its sign-in domain, wired into the
 * sign-in functions; with an issuer of the team's own, its settings and a role of their own for
 * reading the client secret; off by default. cdk-nag for both: test/unit/cdkNag.suite.ts.
 */
import { Match } from 'aws-cdk-lib/assertions';
import { afterAll, describe, expect, it } from 'vitest';
import { ISSUER_CLIENT_MODULES, SINGLE_SIGN_ON_MODULES } from '../../lib/singleSignOn.ts';
import { readStackSettings } from '../../lib/stackSettings.ts';
import { SINGLE_SIGN_ON_ENV } from '../../shared/domain/identity/singleSignOn.ts';
import {
  type Json,
  logicalIdOf,
  removeStubRoots,
  resourceCounts,
  resourcesOfType,
  SINGLE_SIGN_ON_COGNITO,
  SINGLE_SIGN_ON_ISSUER,
  SYNTH_TIMEOUT,
  synthStack,
  TEMPLATE_RESOURCE_BUDGET_WITH_OPTIONS,
} from './support/stackSynth.ts';

afterAll(removeStubRoots);

const SECRET_ARN = SINGLE_SIGN_ON_ISSUER.oidcClientSecretName;

const environmentOf = (json: Json, logicalId: string): Record<string, Json> =>
  json.Resources[logicalId].Properties.Environment?.Variables ?? {};

const functionIds = (synthesized: ReturnType<typeof synthStack>, modules: readonly string[]) =>
  modules.map((module) => logicalIdOf(synthesized.stack, synthesized.stack.functions.get(module)!));

describe('single sign-on settings', () => {
  it('refuse a half-given or unsafe issuer', async () => {
    const { App } = await import('aws-cdk-lib');
    const read = (context: Record<string, unknown>) => readStackSettings(new App({ context }));
    expect(read({}).singleSignOn).toBeUndefined();
    expect(read(SINGLE_SIGN_ON_COGNITO).singleSignOn).toEqual({ kind: 'cognito', providerName: 'Cognito' });
    expect(read(SINGLE_SIGN_ON_ISSUER).singleSignOn).toEqual({
      kind: 'issuer',
      issuer: 'https://login.example.org/realms/team',
      clientId: 'tracker',
      clientSecretName: SECRET_ARN,
      providerName: 'Example Login',
    });
    expect(() => read({ oidc: 'http://login.example.org' })).toThrow(/https URL of an OpenID Connect issuer/);
    expect(() => read({ oidc: 'https://login.example.org' })).toThrow(/needs "oidcClientId"/);
    expect(() => read({ oidcClientId: 'x' })).toThrow(/goes with "oidc"/);
    expect(() => read({ oidc: 'cognito', oidcClientId: 'x' })).toThrow(/the stack makes the client/);
    expect(() => read({ oidc: 'cognito', oidcCognitoDomainPrefix: 'my-cognito' })).toThrow(/without aws/);
  });
});

describe('single sign-on off (the default)', () => {
  it(
    'makes no user pool and gives the sign-in functions no issuer',
    () => {
      const synthesized = synthStack();
      expect(resourcesOfType(synthesized.json, 'AWS::Cognito::UserPool')).toEqual([]);
      for (const id of functionIds(synthesized, SINGLE_SIGN_ON_MODULES))
        expect(environmentOf(synthesized.json, id)[SINGLE_SIGN_ON_ENV.issuer]).toBeUndefined();
    },
    SYNTH_TIMEOUT,
  );
});

describe('single sign-on through a Cognito user pool of the stack', () => {
  it(
    'makes the pool, a public code-flow client whose only callback is the web app, and a sign-in domain',
    () => {
      const synthesized = synthStack({ context: SINGLE_SIGN_ON_COGNITO });
      const { template, json, stack } = synthesized;
      template.resourceCountIs('AWS::Cognito::UserPool', 1);
      template.hasResource('AWS::Cognito::UserPool', {
        DeletionPolicy: 'Retain',
        Properties: Match.objectLike({
          AdminCreateUserConfig: { AllowAdminCreateUserOnly: true },
          MfaConfiguration: 'ON',
          EnabledMfas: ['SOFTWARE_TOKEN_MFA'],
          UsernameAttributes: ['email'],
          DeletionProtection: 'ACTIVE',
        }),
      });
      const [[, client]] = resourcesOfType(json, 'AWS::Cognito::UserPoolClient');
      expect(client.Properties).toMatchObject({
        GenerateSecret: false,
        AllowedOAuthFlows: ['code'],
        AllowedOAuthFlowsUserPoolClient: true,
        AllowedOAuthScopes: ['openid', 'email', 'profile'],
        SupportedIdentityProviders: ['COGNITO'],
      });
      // The callback is the distribution's own address: `https://<distribution>/oidc/callback`.
      const distributionId = logicalIdOf(stack, stack.web.distribution);
      expect(JSON.stringify(client.Properties.CallbackURLs)).toContain(distributionId);
      expect(JSON.stringify(client.Properties.CallbackURLs)).toContain('/oidc/callback');
      template.resourceCountIs('AWS::Cognito::UserPoolDomain', 1);

      const poolId = logicalIdOf(stack, stack.singleSignOn!.userPool!);
      const clientId = logicalIdOf(stack, stack.singleSignOn!.client!);
      for (const id of functionIds(synthesized, SINGLE_SIGN_ON_MODULES)) {
        const environment = environmentOf(json, id);
        expect(JSON.stringify(environment[SINGLE_SIGN_ON_ENV.issuer]), id).toContain(poolId);
        expect(JSON.stringify(environment[SINGLE_SIGN_ON_ENV.issuer]), id).toContain('https://cognito-idp.');
        expect(JSON.stringify(environment[SINGLE_SIGN_ON_ENV.clientId]), id).toContain(clientId);
        expect(JSON.stringify(environment[SINGLE_SIGN_ON_ENV.redirectUri]), id).toContain('/oidc/callback');
        expect(environment[SINGLE_SIGN_ON_ENV.providerName]).toBe('Cognito');
        expect(environment[SINGLE_SIGN_ON_ENV.clientSecretArn]).toBeUndefined();
      }
      expect(Object.keys(synthesized.json.Outputs)).toEqual(
        expect.arrayContaining(['SingleSignOnIssuer', 'UserPoolId', 'UserPoolSignInUrl']),
      );
      for (const [name, count] of resourceCounts(synthesized))
        expect(count, name).toBeLessThan(TEMPLATE_RESOURCE_BUDGET_WITH_OPTIONS);
    },
    SYNTH_TIMEOUT,
  );
});

describe('single sign-on through an issuer of the team', () => {
  it(
    'gives the functions the issuer, and only the two that talk to it the client secret, through a role of their own',
    () => {
      const synthesized = synthStack({ context: SINGLE_SIGN_ON_ISSUER });
      const { json, stack } = synthesized;
      expect(resourcesOfType(json, 'AWS::Cognito::UserPool')).toEqual([]);
      for (const id of functionIds(synthesized, SINGLE_SIGN_ON_MODULES)) {
        const environment = environmentOf(json, id);
        expect(environment[SINGLE_SIGN_ON_ENV.issuer]).toBe('https://login.example.org/realms/team');
        expect(environment[SINGLE_SIGN_ON_ENV.clientId]).toBe('tracker');
        expect(environment[SINGLE_SIGN_ON_ENV.clientSecretArn]).toBe(SECRET_ARN);
        expect(environment[SINGLE_SIGN_ON_ENV.clientSecret]).toBeUndefined();
      }
      const readers = resourcesOfType(json, 'AWS::IAM::Policy').filter(([, policy]) =>
        JSON.stringify(policy.Properties.PolicyDocument).includes('secretsmanager:GetSecretValue'),
      );
      const rolesReading = readers.flatMap(([, policy]) => policy.Properties.Roles.map((role: Json) => role.Ref));
      const signInRole = stack.roles.roles.find((role) => role.node.id === 'SingleSignOnRole')!;
      expect(rolesReading).toContain(logicalIdOf(stack, signInRole));
      for (const module of ISSUER_CLIENT_MODULES) {
        const fn = json.Resources[logicalIdOf(stack, stack.functions.get(module)!)];
        expect(JSON.stringify(fn.Properties.Role), module).toContain(logicalIdOf(stack, signInRole));
      }
      // Every other function keeps its shared role, which may read no secret of the issuer.
      const options = json.Resources[logicalIdOf(stack, stack.functions.get('oidc/signInOptions')!)];
      expect(JSON.stringify(options.Properties.Role)).not.toContain(logicalIdOf(stack, signInRole));
    },
    SYNTH_TIMEOUT,
  );
});
