import * as oidc from 'openid-client';
import { checkRealName } from '../../domain/identity/accounts.ts';
import { ANONYMOUS } from '../../domain/identity/caller.ts';
import {
  CODE_CHALLENGE,
  CODE_VERIFIER,
  checkFinishingBrowser,
  digestOf,
  type IdentityClaims,
  mayCreateAccount,
  realNameOf,
  SIGN_IN_LIFETIME_SECONDS,
  SIGN_IN_SCOPE,
  type SingleSignOnSettings,
  singleSignOnSettings,
  verifiedEmailOf,
} from '../../domain/identity/singleSignOn.ts';
import { errors } from '../../errors.ts';
import { identityDirectory } from '../../storage/identity/identityDirectory.ts';
import { putStartedSignIn, takeStartedSignIn } from '../../storage/identity/signInStateStore.ts';
import { loadParameters } from '../../storage/instance/parameterStore.ts';
import { readSecretString } from '../../storage/notification/webhookSecretStore.ts';
import { TrackerError } from '../../trackerError.ts';
import { issueLoginToken } from './sessions.ts';
import { createUser } from './users.ts';

/**
 * Single sign-on through an OpenID Connect issuer: the authorization code flow with PKCE, the
 * code exchanged and the ID token verified (signature against the issuer's published keys,
 * issuer, audience, expiry, nonce) by openid-client. The browser that starts a sign-in keeps the
 * code verifier and the nonce; the table keeps only their digests (docs/web-security.md).
 */

/** Seconds each call to the issuer may take: the API function has 10 s in all. */
const ISSUER_TIMEOUT_SECONDS = 4;

/** The issuer's discovered configuration, kept for the life of the process (per issuer and client). */
let discovered: { key: string; configuration: Promise<oidc.Configuration> } | undefined;

/** Plain http only to this machine (a developer's issuer, the tests'); anywhere else https. */
const isLoopback = (url: URL) => ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);

async function clientSecretOf(settings: SingleSignOnSettings): Promise<string | undefined> {
  const secret = settings.clientSecret;
  if (!secret) return undefined;
  return 'value' in secret ? secret.value : (await readSecretString(secret.secretId)).trim();
}

async function discover(settings: SingleSignOnSettings): Promise<oidc.Configuration> {
  const issuer = new URL(settings.issuer);
  const secret = await clientSecretOf(settings);
  const insecure = issuer.protocol === 'http:' && isLoopback(issuer);
  const configuration = await oidc.discovery(
    issuer,
    settings.clientId,
    secret === undefined ? undefined : { client_secret: secret },
    secret === undefined ? oidc.None() : oidc.ClientSecretPost(secret),
    { execute: insecure ? [oidc.allowInsecureRequests] : [], timeout: ISSUER_TIMEOUT_SECONDS },
  );
  configuration.timeout = ISSUER_TIMEOUT_SECONDS;
  return configuration;
}

function issuerConfiguration(settings: SingleSignOnSettings): Promise<oidc.Configuration> {
  const key = JSON.stringify([settings.issuer, settings.clientId, settings.clientSecret]);
  if (discovered?.key !== key) {
    const configuration = discover(settings);
    discovered = { key, configuration };
    // A failed discovery is tried again by the next sign-in, not remembered.
    configuration.catch(() => {
      if (discovered?.configuration === configuration) discovered = undefined;
    });
  }
  return discovered.configuration.catch((error: unknown) => {
    throw issuerFailure(error);
  });
}

/** What the issuer's refusals and the library's checks become: Bugzilla-style errors, never a 500. */
function issuerFailure(error: unknown): TrackerError {
  if (error instanceof TrackerError) return error;
  if (error instanceof oidc.ResponseBodyError || error instanceof oidc.AuthorizationResponseError)
    return errors.signInRefused(error.error);
  // The library's own checks of an answer (signature, issuer, audience, nonce, expiry); anything
  // else (no connection, a timeout, an answer that is not OpenID's) is the issuer not answering.
  if (error instanceof oidc.ClientError && !['OAUTH_TIMEOUT', 'OAUTH_ABORT'].includes(String(error.code)))
    return errors.signInRefused(error.message);
  return errors.signInIssuerUnreachable();
}

function requireSettings(): SingleSignOnSettings {
  const settings = singleSignOnSettings();
  if (!settings) throw errors.signInNotConfigured();
  return settings;
}

/** What the login form needs to know (GET /rest/oidc). */
export function signInOptions(): { enabled: boolean; provider: string | null } {
  const settings = singleSignOnSettings();
  return { enabled: settings !== null, provider: settings?.providerName ?? null };
}

/**
 * Starts a sign-in for the browser that holds the code verifier behind `codeChallenge`: the
 * address to send it to at the issuer, and the state and nonce (also in that address) it must
 * show again to finish.
 */
export async function startSignIn(
  codeChallenge: string,
  now = new Date(),
): Promise<{ authorization_url: string; state: string; nonce: string }> {
  const settings = requireSettings();
  if (!CODE_CHALLENGE.test(codeChallenge))
    throw errors.invalidParameter('code_challenge must be the S256 challenge of a code verifier (RFC 7636).');
  const configuration = await issuerConfiguration(settings);
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  await putStartedSignIn(digestOf(state), {
    nonceDigest: digestOf(nonce),
    codeChallenge,
    expiresAt: Math.floor(now.getTime() / 1000) + SIGN_IN_LIFETIME_SECONDS,
  });
  const url = oidc.buildAuthorizationUrl(configuration, {
    redirect_uri: settings.redirectUri,
    scope: SIGN_IN_SCOPE,
    state,
    nonce,
    code_challenge: codeChallenge,
    code_challenge_method: 'S256',
  });
  return { authorization_url: url.href, state, nonce };
}

export interface SignInCallback {
  /** The callback address's parameters, as the issuer sent them. */
  state: string;
  code: string;
  iss?: string;
  /** Held by the browser since the start. */
  code_verifier: string;
  nonce: string;
}

/** Finishes a sign-in: the person's account (found by verified e-mail, or made when allowed) and a login token, as POST /rest/login gives. */
export async function finishSignIn(callback: SignInCallback, now = new Date()): Promise<{ id: number; token: string }> {
  const settings = requireSettings();
  if (!CODE_VERIFIER.test(callback.code_verifier)) throw errors.signInStateInvalid();
  // Taken (deleted) before anything else: a state is good for one try, whatever its outcome.
  const started = await takeStartedSignIn(digestOf(callback.state));
  checkFinishingBrowser(started, { nonce: callback.nonce, codeVerifier: callback.code_verifier }, now);
  const configuration = await issuerConfiguration(settings);
  const returned = new URL(settings.redirectUri);
  returned.search = '';
  returned.searchParams.set('code', callback.code);
  returned.searchParams.set('state', callback.state);
  if (callback.iss !== undefined) returned.searchParams.set('iss', callback.iss);
  let claims: IdentityClaims;
  try {
    const tokens = await oidc.authorizationCodeGrant(configuration, returned, {
      pkceCodeVerifier: callback.code_verifier,
      expectedState: callback.state,
      expectedNonce: callback.nonce,
      idTokenExpected: true,
    });
    claims = tokens.claims() as IdentityClaims;
    // Some issuers put the address only in the user info (Cognito does put it in the ID token).
    if (claims.email === undefined) {
      const info = await oidc.fetchUserInfo(configuration, tokens.access_token, claims.sub);
      claims = { ...claims, email: info.email, email_verified: info.email_verified, name: claims.name ?? info.name };
    }
  } catch (error) {
    throw issuerFailure(error);
  }
  const email = verifiedEmailOf(claims);
  const userId = (await identityDirectory.findUserIdByLogin(email)) ?? (await createAccountFor(email, claims));
  const record = await identityDirectory.loadUserWithMembership(userId);
  if (!record) throw errors.signInStateInvalid();
  if (record.user.disabledText) throw errors.accountDisabled(record.user.disabledText);
  return { id: userId, token: await issueLoginToken(userId, now) };
}

/** The issuer's name for the person, when it is one Tracker accepts; else none (they can set it later). */
function usableRealName(claims: IdentityClaims): string {
  try {
    return checkRealName(realNameOf(claims));
  } catch {
    return '';
  }
}

/** An account for someone the installation lets in (createemailregexp), with no password: they sign in through the issuer. */
async function createAccountFor(email: string, claims: IdentityClaims): Promise<number> {
  const parameters = await loadParameters();
  if (!mayCreateAccount(email, parameters)) throw errors.signInAccountCreationRestricted(email);
  try {
    // Made by nobody logged in: the audit log names the account itself, as at self-registration.
    return (await createUser(ANONYMOUS, { email, full_name: usableRealName(claims) })).id;
  } catch (error) {
    // Two first sign-ins of one person at once: the other made the account.
    const existing = await identityDirectory.findUserIdByLogin(email);
    if (existing !== null) return existing;
    throw error;
  }
}
