#!/usr/bin/env node
/**
 * The CDK app: one stack, `Tracker` (its CloudFormation name can be overridden with
 * `cdk synth -c stackName=...`; the template stays cdk.out/Tracker.template.json).
 */
import { App } from 'aws-cdk-lib';
import { TrackerStack } from '../lib/trackerStack.ts';

const app = new App();

const stackName: unknown = app.node.tryGetContext('stackName');
if (stackName !== undefined && (typeof stackName !== 'string' || stackName === '')) {
  throw new Error('Context "stackName" must be a non-empty string');
}

// Environment-agnostic on purpose: synth needs no AWS account, credentials or lookups.
new TrackerStack(app, 'Tracker', {
  stackName: stackName ?? 'Tracker',
  description: 'Tracker: serverless Bugzilla-compatible REST API',
});
