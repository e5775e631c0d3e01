import { randomBytes } from 'node:crypto';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { bootstrapInstallation } from '../../shared/application/instance/bootstrapInstallation.ts';
import { DEFAULT_ADMIN_LOGIN } from '../../shared/domain/instance/installation.ts';

/**
 * The deploy-time custom resource (CDK Provider framework): on Create and Update it bootstraps a
 * new installation if the table has none, with the administrator's API key from Secrets Manager
 * (`aws secretsmanager get-secret-value --secret-id <AdminApiKeySecretArn>`) and the
 * distribution's address as urlbase. Delete keeps the
 * data, as the table and bucket are retained.
 */
interface CustomResourceEvent {
  RequestType: 'Create' | 'Update' | 'Delete';
  PhysicalResourceId?: string;
  ResourceProperties?: Record<string, string>;
}

const PHYSICAL_ID = 'tracker-installation';

export const handler = async (event: CustomResourceEvent) => {
  if (event.RequestType === 'Delete') return { PhysicalResourceId: event.PhysicalResourceId ?? PHYSICAL_ID };
  const secretArn = process.env.TRACKER_ADMIN_API_KEY_SECRET_ARN ?? event.ResourceProperties?.AdminApiKeySecretArn;
  const secret = secretArn
    ? await new SecretsManagerClient({}).send(new GetSecretValueCommand({ SecretId: secretArn }))
    : undefined;
  const result = await bootstrapInstallation({
    adminLogin: process.env.TRACKER_ADMIN_LOGIN ?? event.ResourceProperties?.AdminLogin ?? DEFAULT_ADMIN_LOGIN,
    adminApiKey: secret?.SecretString,
    // The administrator signs in with the API key; a random password can be reset later.
    adminPassword: randomBytes(24).toString('base64url'),
    // The web app's origin, which the API shares (lib/webFrontEnd.ts); an existing installation keeps its own.
    urlbase: event.ResourceProperties?.Urlbase || undefined,
  });
  console.log(
    JSON.stringify({
      level: 'info',
      message: result.created ? 'installation created' : 'installation already present',
    }),
  );
  return { PhysicalResourceId: PHYSICAL_ID, Data: { Created: String(result.created) } };
};
