#!/usr/bin/env node
/**
 * The CDK app: one stack, `Tracker` (its CloudFormation name can be overridden with
 * `cdk synth -c stackName=...`; the template stays cdk.out/Tracker.template.json). Every other
 * deployment setting is read by the stack itself (lib/stackSettings.ts, docs/operations.md).
 */
import { App } from 'aws-cdk-lib';
import { stackNameFrom } from '../lib/stackSettings.ts';
import { TrackerStack } from '../lib/trackerStack.ts';

const app = new App();

// Environment-agnostic on purpose: synth needs no AWS account, credentials or lookups.
new TrackerStack(app, 'Tracker', {
  stackName: stackNameFrom(app),
  description: 'Tracker: serverless Bugzilla-compatible REST API',
});
