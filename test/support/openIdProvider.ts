import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import { SINGLE_SIGN_ON_ENV } from '../../shared/domain/identity/singleSignOn.ts';

/**
 * A real OpenID Connect issuer for a test file: oidc-provider (the certified implementation) on a
 * free loopback port, with one confidential client and accounts the test sets. Its login and
 * consent pages are replaced by a hook that signs in whoever the test named, as a person at the
 * issuer's login page would; everything else (discovery, keys, codes, PKCE, ID tokens, user info)
 * is the library's own.
 */
export interface IssuerAccount {
  email?: string;
  email_verified?: boolean;
  name?: string;
}

export interface TestIssuer {
  url: string;
  clientId: string;
  clientSecret: string;
  /** The accounts at the issuer, by subject. */
  accounts: Map<string, IssuerAccount>;
  /** Who signs in at the issuer's login page next. */
  signInAs(subject: string): void;
  close(): Promise<void>;
}

export async function startTestIssuer(redirectUri: string): Promise<TestIssuer> {
  const accounts = new Map<string, IssuerAccount>();
  let nextSubject = '';
  let provider: Provider | undefined;
  const server: Server = createServer((req, res) => {
    if (!provider) {
      res.statusCode = 503;
      res.end();
      return;
    }
    if (req.url?.startsWith('/interaction/')) {
      void finishInteraction(provider, nextSubject, req, res).catch((error: unknown) => {
        res.statusCode = 500;
        res.end(String(error));
      });
      return;
    }
    provider.callback()(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'tracker-test';
  const clientSecret = randomBytes(24).toString('base64url');
  provider = new Provider(url, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    cookies: { keys: [randomBytes(16).toString('hex')] },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    findAccount: (_ctx: unknown, subject: string) => {
      const account = accounts.get(subject);
      if (!account) return undefined;
      return { accountId: subject, claims: () => ({ sub: subject, ...account }) };
    },
  });
  // The library logs each refused request; the tests assert on what Tracker answers.
  provider.on('server_error', () => undefined);
  return {
    url,
    clientId,
    clientSecret,
    accounts,
    signInAs: (subject) => {
      nextSubject = subject;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The issuer's login and consent pages: the named person signs in and allows what Tracker asks. */
async function finishInteraction(
  provider: Provider,
  subject: string,
  req: Parameters<Provider['interactionDetails']>[0],
  res: Parameters<Provider['interactionDetails']>[1],
): Promise<void> {
  const details = await provider.interactionDetails(req, res);
  if (details.prompt.name === 'login') {
    await provider.interactionFinished(req, res, { login: { accountId: subject } }, { mergeWithLastSubmission: false });
    return;
  }
  const grant = new provider.Grant({ accountId: details.session!.accountId, clientId: details.params.client_id });
  grant.addOIDCScope(details.params.scope);
  await provider.interactionFinished(
    req,
    res,
    { consent: { grantId: await grant.save() } },
    { mergeWithLastSubmission: true },
  );
}

/** A PKCE code verifier and its S256 challenge, as the web app makes them. */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/**
 * A browser at the issuer: follows its redirects from the authorization address, keeping its
 * cookies, until it is sent back to `redirectUri`; answers the callback address's parameters.
 */
export async function browseToCallback(authorizationUrl: string, redirectUri: string): Promise<URLSearchParams> {
  const cookies = new Map<string, string>();
  let next = authorizationUrl;
  for (let hop = 0; hop < 12; hop++) {
    if (next.startsWith(redirectUri)) return new URL(next).searchParams;
    const response = await fetch(next, {
      redirect: 'manual',
      headers: { cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; ') },
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line)) cookies.delete(name);
      else cookies.set(name, value);
    }
    const location = response.headers.get('location');
    await response.arrayBuffer();
    if (!location) throw new Error(`the issuer answered ${response.status} without a redirect at ${next}`);
    next = new URL(location, next).href;
  }
  throw new Error('the issuer never sent the browser back');
}

/** Points the app (its handlers run in the test's process) at the issuer, as the stack's environment does; answers how to switch it off again. */
export function useTestIssuer(issuer: TestIssuer, redirectUri: string): () => void {
  process.env[SINGLE_SIGN_ON_ENV.issuer] = issuer.url;
  process.env[SINGLE_SIGN_ON_ENV.clientId] = issuer.clientId;
  process.env[SINGLE_SIGN_ON_ENV.clientSecret] = issuer.clientSecret;
  process.env[SINGLE_SIGN_ON_ENV.redirectUri] = redirectUri;
  process.env[SINGLE_SIGN_ON_ENV.providerName] = 'Test Issuer';
  return () => {
    for (const name of Object.values(SINGLE_SIGN_ON_ENV)) delete process.env[name];
  };
}
