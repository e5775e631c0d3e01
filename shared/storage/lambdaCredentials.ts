import { fromEnv } from '@aws-sdk/credential-provider-env';
import type { AwsCredentialIdentity, AwsCredentialIdentityProvider } from '@smithy/types';

/**
 * Stands in for `@aws-sdk/credential-provider-node` in the deployed bundles (an esbuild alias set
 * in lib/trackerFunction.ts); local runs and tests use the SDK's own default chain.
 *
 * The SDK's default chain carries every way a machine can hold credentials: profiles, SSO, the
 * `aws login` flow, web identity, credential processes, EC2 metadata, each with the nested STS,
 * SSO and sign-in clients they need. That is about 130 KiB of every bundle, evaluated or at least
 * parsed at each cold start, for sources a Lambda function never has: Lambda puts the execution
 * role's credentials in the environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
 * AWS_SESSION_TOKEN). The container credentials endpoint is kept as the second source, because
 * that is how a function receives them when they are not in the environment (as some runtimes
 * and `sam local` setups do).
 */
export function defaultProvider(init: Record<string, unknown> = {}): AwsCredentialIdentityProvider {
  const environment = fromEnv(init);
  return async (): Promise<AwsCredentialIdentity> => {
    try {
      return await environment();
    } catch (error) {
      if (process.env.AWS_CONTAINER_CREDENTIALS_FULL_URI || process.env.AWS_CONTAINER_CREDENTIALS_RELATIVE_URI) {
        // Loaded only where it is used: most functions never take this path.
        const { fromHttp } = await import('@aws-sdk/credential-provider-http');
        return fromHttp(init)();
      }
      throw error;
    }
  };
}

/** The same expiry rules as the SDK's chain, which the client may import with it. */
export const credentialsWillNeedRefresh = (credentials?: AwsCredentialIdentity): boolean =>
  credentials?.expiration !== undefined;
export const credentialsTreatedAsExpired = (credentials?: AwsCredentialIdentity): boolean =>
  credentials?.expiration !== undefined && credentials.expiration.getTime() - Date.now() < 300_000;
