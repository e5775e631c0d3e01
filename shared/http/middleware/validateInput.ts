import type { MiddlewareObj } from '@middy/core';
import type * as z from 'zod';
import { errors } from '../../errors.ts';
import type { TrackerError } from '../../trackerError.ts';
import { stateOf, type TrackerRequest } from '../requestState.ts';

/** How an endpoint turns a schema failure into its own error code, where the spec gives one. */
export type InvalidInput = (issue: z.core.$ZodIssue, parameter: string) => TrackerError | undefined;

export function describeIssue(issue: z.core.$ZodIssue, parameter: string): string {
  if (issue.code === 'invalid_type' && issue.input === undefined) return `The parameter '${parameter}' is required.`;
  return `Invalid value for the parameter '${parameter}': ${issue.message}.`;
}

/** Validates the merged parameters with the endpoint's zod schema. */
export const validateInput = (schema: z.ZodType, invalidInput?: InvalidInput): MiddlewareObj => ({
  before: (request) => {
    const state = stateOf(request as TrackerRequest);
    // reportInput keeps the offending value on the issue, so "missing" and "invalid" can be told apart.
    const result = schema.safeParse(state.params, { reportInput: true });
    if (result.success) {
      state.input = result.data;
      return;
    }
    const issue = result.error.issues[0];
    const parameter = issue.path.length > 0 ? issue.path.join('.') : 'input';
    throw invalidInput?.(issue, parameter) ?? errors.invalidParameter(describeIssue(issue, parameter));
  },
});
