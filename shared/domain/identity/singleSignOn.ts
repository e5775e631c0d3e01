import { createHash } from 'node:crypto';
import { errors } from '../../errors.ts';
import type { Parameters } from '../instance/parameters.ts';
import { regexpProblem, safeRegexpTest } from '../safeRegexp.ts';

/**
 * Single sign-on through an OpenID Connect issuer (docs/operations.md, "Single sign-on"): the
 * settings, the checks of one sign-in's proof of possession, and which person a verified identity
 * is. The protocol itself (discovery, the code exchange, the ID token's signature against the
 * issuer's keys) is openid-client's, in shared/application/identity/singleSignOn.ts.
 */

/** The environment that switches it on: the stack sets it on the sign-in functions, `npm start` passes it on. */
export const SINGLE_SIGN_ON_ENV = {
  /** The issuer's URL, as its discovery document names it (`https://cognito-idp.<region>.amazonaws.com/<pool id>`). */
  issuer: 'TRACKER_OIDC_ISSUER',
  clientId: 'TRACKER_OIDC_CLIENT_ID',
  /** The client secret itself (a developer's machine); or, deployed, the secret holding it: */
  clientSecret: 'TRACKER_OIDC_CLIENT_SECRET',
  clientSecretArn: 'TRACKER_OIDC_CLIENT_SECRET_ARN',
  /** The web app's callback page, registered with the issuer: `https://<site>/oidc/callback`. */
  redirectUri: 'TRACKER_OIDC_REDIRECT_URI',
  /** What the login form's button names: "Sign in with <name>". */
  providerName: 'TRACKER_OIDC_NAME',
} as const;

/** The web app's page the issuer sends the browser back to. */
export const CALLBACK_PATH = '/oidc/callback';

/** How long a started sign-in may take at the issuer before it must be started again. */
export const SIGN_IN_LIFETIME_SECONDS = 600;

/** What is asked of the issuer: the ID token with the person's address and name. */
export const SIGN_IN_SCOPE = 'openid email profile';

export interface SingleSignOnSettings {
  issuer: string;
  clientId: string;
  /** None for a public client (the stack's own Cognito app client): PKCE alone binds the code. */
  clientSecret?: { value: string } | { secretId: string };
  redirectUri: string;
  providerName: string;
}

type Environment = Record<string, string | undefined>;

/** The settings, or null when single sign-on is off (no issuer). A half-given setting is an operator's mistake: it throws. */
export function singleSignOnSettings(env: Environment = process.env): SingleSignOnSettings | null {
  const value = (name: string) => env[name]?.trim() || undefined;
  const issuer = value(SINGLE_SIGN_ON_ENV.issuer);
  if (!issuer) return null;
  const clientId = value(SINGLE_SIGN_ON_ENV.clientId);
  const redirectUri = value(SINGLE_SIGN_ON_ENV.redirectUri);
  if (!clientId || !redirectUri)
    throw new Error(
      `${SINGLE_SIGN_ON_ENV.issuer} needs ${SINGLE_SIGN_ON_ENV.clientId} and ${SINGLE_SIGN_ON_ENV.redirectUri} beside it`,
    );
  const secret = value(SINGLE_SIGN_ON_ENV.clientSecret);
  const secretId = value(SINGLE_SIGN_ON_ENV.clientSecretArn);
  return {
    issuer,
    clientId,
    clientSecret: secret ? { value: secret } : secretId ? { secretId } : undefined,
    redirectUri,
    providerName: value(SINGLE_SIGN_ON_ENV.providerName) ?? new URL(issuer).hostname,
  };
}

/** Values kept only as digests (the started sign-in's state and nonce): a table reader learns nothing usable. */
export const digestOf = (value: string): string => createHash('sha256').update(value, 'utf8').digest('base64url');

/** RFC 7636's S256 code challenge of a code verifier. */
export const codeChallengeOf = (verifier: string): string => digestOf(verifier);

/** RFC 7636: 43 to 128 unreserved characters. */
export const CODE_VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;
/** A S256 challenge: the base64url SHA-256, 43 characters. */
export const CODE_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

/** What the table keeps of a started sign-in, under its state's digest. */
export interface StartedSignIn {
  nonceDigest: string;
  codeChallenge: string;
  /** Epoch seconds (the table's TTL attribute). */
  expiresAt: number;
}

/**
 * Whether the browser finishing a sign-in is the one that started it: it must show the nonce and
 * the PKCE code verifier that only it holds (docs/web-security.md, "Single sign-on"). A sign-in
 * that expired, was finished already, or was never started answers the same.
 */
export function checkFinishingBrowser(
  started: StartedSignIn | null,
  proof: { nonce: string; codeVerifier: string },
  now: Date,
): void {
  if (!started || started.expiresAt * 1000 <= now.getTime()) throw errors.signInStateInvalid();
  if (started.nonceDigest !== digestOf(proof.nonce) || started.codeChallenge !== codeChallengeOf(proof.codeVerifier))
    throw errors.signInStateInvalid();
}

/** The ID token's (and user info's) claims that matter here. */
export interface IdentityClaims {
  sub: string;
  email?: unknown;
  email_verified?: unknown;
  name?: unknown;
}

/**
 * The e-mail address the issuer vouches for. An address the issuer has not verified names no
 * one: anybody can type any address into an account at many issuers, so matching on it would
 * hand them that person's Tracker account. Some issuers send the flag as the text "true".
 */
export function verifiedEmailOf(claims: IdentityClaims): string {
  const email = typeof claims.email === 'string' ? claims.email.trim() : '';
  if (email === '') throw errors.signInWithoutEmail();
  if (claims.email_verified !== true && claims.email_verified !== 'true') throw errors.signInEmailUnverified(email);
  return email;
}

/** The real name for an account made at sign-in: the `name` claim, cut to what a real name may hold. */
export function realNameOf(claims: IdentityClaims): string {
  return typeof claims.name === 'string' ? [...claims.name.trim()].slice(0, 255).join('') : '';
}

/**
 * Whether someone unknown may get an account by signing in, as Bugzilla's self-registration
 * decides it: the address must match `createemailregexp` (empty: nobody may), case-insensitively.
 */
export function mayCreateAccount(email: string, parameters: Parameters): boolean {
  const pattern = parameters.createemailregexp ?? '';
  if (pattern === '' || regexpProblem(pattern) !== null) return false;
  return safeRegexpTest(pattern, email, { caseInsensitive: true });
}
