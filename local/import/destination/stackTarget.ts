import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { ImportRefusal } from '../importErrors.ts';
import type { StorageTarget } from './storageTarget.ts';

/**
 * A deployed stack as the target (`--stack <name>`): its table and bucket from the outputs the
 * stack declares (lib/trackerStack.ts: TableName, BucketName), read with the operator's AWS
 * credentials and region (the SDK's default chain: environment, profile, SSO).
 */
export async function stackTarget(stackName: string, client = new CloudFormationClient({})): Promise<StorageTarget> {
  let outputs: Record<string, string>;
  try {
    const { Stacks } = await client.send(new DescribeStacksCommand({ StackName: stackName }));
    outputs = Object.fromEntries((Stacks?.[0]?.Outputs ?? []).map((output) => [output.OutputKey, output.OutputValue]));
  } catch (error) {
    throw new ImportRefusal(
      'target-missing',
      `The stack ${stackName} could not be read with your AWS credentials: ${error instanceof Error ? error.message : error}`,
    );
  } finally {
    client.destroy();
  }
  const table = outputs.TableName;
  const bucket = outputs.BucketName;
  if (!table || !bucket)
    throw new ImportRefusal(
      'target-missing',
      `The stack ${stackName} has no TableName and BucketName outputs: deploy the current version of Tracker first.`,
    );
  return { table, bucket, description: `stack ${stackName} (table ${table})` };
}
