/**
 * Every suite about the synthesized CDK stack, in one test file so that they run in one process
 * and share its synthesized stacks (test/unit/support/stackSynth.ts synthesizes each route table
 * and settings combination once per process; vitest gives each test file a process of its own).
 * Each suite is a `*.suite.ts` file beside this one, which only this file runs:
 *
 *   npx vitest run --project unit test/unit/stack.test.ts
 *   npx vitest run --project unit test/unit/stack.test.ts -t 'cdk-nag'    (one suite's tests)
 */
// First: its default and every-option stacks are synthesized with CDK's schema validation, which
// the later suites then reuse (a stack synthesized without it would be synthesized again).
import './cdkNag.suite.ts';
import './trackerStack.suite.ts';
import './stackOptions.suite.ts';
import './stackMonitoring.suite.ts';
import './stackNotifications.suite.ts';
import './searchSizing.suite.ts';
import './webFrontEnd.suite.ts';
import './stackSingleSignOn.suite.ts';
