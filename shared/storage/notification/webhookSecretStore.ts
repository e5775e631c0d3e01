import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { sdkTimeouts } from '../sdkTimeouts.ts';

let client: SecretsManagerClient | undefined;

/** The text of a Secrets Manager secret (its current version), by name or ARN. */
export async function readSecretString(secretId: string): Promise<string> {
  client ??= new SecretsManagerClient(sdkTimeouts());
  const answer = await client.send(new GetSecretValueCommand({ SecretId: secretId }));
  if (answer.SecretString === undefined) throw new Error(`secret ${secretId} holds binary data, not text`);
  return answer.SecretString;
}
