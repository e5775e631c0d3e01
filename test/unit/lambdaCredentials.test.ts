import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultProvider } from '../../shared/storage/lambdaCredentials.ts';

/** The stand-in for the SDK's default chain in deployed bundles (lib/trackerFunction.ts BUNDLE_ALIASES). */
const VARIABLES = [
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
  'AWS_SESSION_TOKEN',
  'AWS_CREDENTIAL_EXPIRATION',
  'AWS_CONTAINER_CREDENTIALS_FULL_URI',
  'AWS_CONTAINER_CREDENTIALS_RELATIVE_URI',
  'AWS_PROFILE',
];
const saved = Object.fromEntries(VARIABLES.map((name) => [name, process.env[name]]));
let server: Server | undefined;

function clearVariables() {
  for (const name of VARIABLES) delete process.env[name];
}

afterEach(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  server?.close();
  server = undefined;
});

describe('Lambda credential chain', () => {
  it("takes the role's credentials from the environment, as Lambda provides them", async () => {
    clearVariables();
    process.env.AWS_ACCESS_KEY_ID = 'AKIDEXAMPLE';
    process.env.AWS_SECRET_ACCESS_KEY = 'secret';
    process.env.AWS_SESSION_TOKEN = 'token';
    const credentials = await defaultProvider()();
    expect(credentials).toMatchObject({ accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret', sessionToken: 'token' });
  });

  it('falls back to the container credentials endpoint when the environment has none', async () => {
    clearVariables();
    server = createServer((_request, response) => {
      response.setHeader('content-type', 'application/json');
      response.end(
        JSON.stringify({
          AccessKeyId: 'AKIDCONTAINER',
          SecretAccessKey: 'container-secret',
          Token: 'container-token',
          Expiration: new Date(Date.now() + 3_600_000).toISOString(),
        }),
      );
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    process.env.AWS_CONTAINER_CREDENTIALS_FULL_URI = `http://127.0.0.1:${(server.address() as AddressInfo).port}/credentials`;
    const credentials = await defaultProvider()();
    expect(credentials).toMatchObject({
      accessKeyId: 'AKIDCONTAINER',
      secretAccessKey: 'container-secret',
      sessionToken: 'container-token',
    });
  });

  it('fails with the SDK’s credentials error when there is no source, instead of trying profiles or EC2 metadata', async () => {
    clearVariables();
    await expect(defaultProvider()()).rejects.toThrow(/AWS_ACCESS_KEY_ID|credentials/i);
  });
});
