import { calculatePKCECodeChallenge, randomPKCECodeVerifier } from 'openid-client';
import { describe, expect, it } from 'vitest';
import {
  CODE_CHALLENGE,
  checkFinishingBrowser,
  codeChallengeOf,
  digestOf,
  mayCreateAccount,
  realNameOf,
  SINGLE_SIGN_ON_ENV,
  singleSignOnSettings,
  verifiedEmailOf,
} from '../../shared/domain/identity/singleSignOn.ts';
import { DEFAULT_PARAMETERS } from '../../shared/domain/instance/parameters.ts';
import { TrackerError } from '../../shared/trackerError.ts';

/** The rules of single sign-on that need no issuer (the flow itself: test/integration/singleSignOn.test.ts). */

const codeOf = (action: () => unknown): number | undefined => {
  try {
    action();
    return undefined;
  } catch (error) {
    return error instanceof TrackerError ? error.code : -1;
  }
};

describe('the settings', () => {
  it('are off without an issuer, and refuse an issuer without a client or a callback', () => {
    expect(singleSignOnSettings({})).toBeNull();
    expect(() => singleSignOnSettings({ [SINGLE_SIGN_ON_ENV.issuer]: 'https://id.example' })).toThrow(
      /TRACKER_OIDC_CLIENT_ID and TRACKER_OIDC_REDIRECT_URI/,
    );
  });

  it('read the secret itself or the secret that holds it, and name the issuer by its host by default', () => {
    const base = {
      [SINGLE_SIGN_ON_ENV.issuer]: 'https://id.example/realm',
      [SINGLE_SIGN_ON_ENV.clientId]: 'tracker',
      [SINGLE_SIGN_ON_ENV.redirectUri]: 'https://bugs.example/oidc/callback',
    };
    expect(singleSignOnSettings(base)).toEqual({
      issuer: 'https://id.example/realm',
      clientId: 'tracker',
      clientSecret: undefined,
      redirectUri: 'https://bugs.example/oidc/callback',
      providerName: 'id.example',
    });
    expect(singleSignOnSettings({ ...base, [SINGLE_SIGN_ON_ENV.clientSecret]: 's3cret' })?.clientSecret).toEqual({
      value: 's3cret',
    });
    expect(
      singleSignOnSettings({ ...base, [SINGLE_SIGN_ON_ENV.clientSecretArn]: 'arn:aws:secretsmanager:x' })?.clientSecret,
    ).toEqual({ secretId: 'arn:aws:secretsmanager:x' });
  });
});

describe('the finishing browser', () => {
  const verifier = 'v'.repeat(43);
  const now = new Date('2026-01-01T00:00:00Z');
  const started = {
    nonceDigest: digestOf('the-nonce'),
    codeChallenge: codeChallengeOf(verifier),
    expiresAt: now.getTime() / 1000 + 600,
  };

  it('makes the S256 challenge a client library makes', async () => {
    const sample = randomPKCECodeVerifier();
    expect(codeChallengeOf(sample)).toBe(await calculatePKCECodeChallenge(sample));
    expect(codeChallengeOf(sample)).toMatch(CODE_CHALLENGE);
  });

  it('must hold the nonce and the verifier of a sign-in that has not expired', () => {
    expect(codeOf(() => checkFinishingBrowser(started, { nonce: 'the-nonce', codeVerifier: verifier }, now))).toBe(
      undefined,
    );
    expect(codeOf(() => checkFinishingBrowser(null, { nonce: 'the-nonce', codeVerifier: verifier }, now))).toBe(307);
    expect(codeOf(() => checkFinishingBrowser(started, { nonce: 'other', codeVerifier: verifier }, now))).toBe(307);
    expect(
      codeOf(() => checkFinishingBrowser(started, { nonce: 'the-nonce', codeVerifier: 'w'.repeat(43) }, now)),
    ).toBe(307);
    const later = new Date(now.getTime() + 600_000);
    expect(codeOf(() => checkFinishingBrowser(started, { nonce: 'the-nonce', codeVerifier: verifier }, later))).toBe(
      307,
    );
  });
});

describe('the identity', () => {
  it('is the verified e-mail address (the flag as JSON or as text), nothing else', () => {
    expect(verifiedEmailOf({ sub: '1', email: ' a@b.example ', email_verified: true })).toBe('a@b.example');
    expect(verifiedEmailOf({ sub: '1', email: 'a@b.example', email_verified: 'true' })).toBe('a@b.example');
    expect(codeOf(() => verifiedEmailOf({ sub: '1', email: 'a@b.example', email_verified: false }))).toBe(302);
    expect(codeOf(() => verifiedEmailOf({ sub: '1', email: 'a@b.example' }))).toBe(302);
    expect(codeOf(() => verifiedEmailOf({ sub: '1', email_verified: true }))).toBe(302);
  });

  it('brings its real name, cut to 255 characters', () => {
    expect(realNameOf({ sub: '1', name: ' Ann ' })).toBe('Ann');
    expect(realNameOf({ sub: '1', name: 'x'.repeat(300) })).toHaveLength(255);
    expect(realNameOf({ sub: '1', name: 42 })).toBe('');
  });

  it('gets an account when createemailregexp matches it (Bugzilla: empty lets nobody in)', () => {
    const parameters = (createemailregexp: string) => ({ ...DEFAULT_PARAMETERS, createemailregexp });
    expect(mayCreateAccount('a@b.example', DEFAULT_PARAMETERS)).toBe(true);
    expect(mayCreateAccount('a@B.Example', parameters('@b\\.example$'))).toBe(true);
    expect(mayCreateAccount('a@c.example', parameters('@b\\.example$'))).toBe(false);
    expect(mayCreateAccount('a@b.example', parameters(''))).toBe(false);
    expect(mayCreateAccount('a@b.example', parameters('(unclosed'))).toBe(false);
  });
});
