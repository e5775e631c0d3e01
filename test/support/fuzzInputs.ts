import fc from 'fast-check';

/**
 * Generated bad input for the fuzz tests (test/integration/fuzz*.test.ts): odd text (NUL, bidi
 * overrides, lone surrogates, names longer than a DynamoDB key, injection look-alikes), Bugzilla's
 * parameter names and hostile ones, and nested values of every JSON type.
 */

/** Generated requests per REST route; `FUZZ_RUNS` raises it for a long run. */
export const FUZZ_RUNS_PER_ROUTE = Number(process.env.FUZZ_RUNS ?? 5);
/** Generated RPC calls in all; `FUZZ_RPC_RUNS` raises it. */
export const FUZZ_RPC_RUNS = Number(process.env.FUZZ_RPC_RUNS ?? 300);

/** What an answer must never hold: a stack trace, a source position, an engine's own error. */
export const STACK_TRACE =
  /\n\s+at |node:internal|\.ts:\d+:\d+|\.js:\d+:\d+|TypeError|ReferenceError|ValidationException/;

export const oddText = fc.constantFrom(
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\u202eevil\u202c',
  '\ud800',
  '\udfff\ud800',
  '\u200b',
  '💥'.repeat(3),
  'x'.repeat(70_000),
  // Longer than any key DynamoDB takes (2,048 bytes): logins, names and aliases must be refused before a key is built.
  'n'.repeat(2_100),
  `${'é'.repeat(1_100)}@example.test`,
  'é'.repeat(300),
  '0',
  '-1',
  '1e309',
  '9223372036854775808',
  'NaN',
  'null',
  'true',
  '__proto__',
  'constructor',
  '../../etc/passwd',
  '%00',
  '*',
  ',,,',
  '.*',
  '(a+)+$',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  'admin',
  'TestProduct',
  'TestComponent',
  'fuzzgroup',
  'cf_fuzz',
  '1',
  '2',
);

export const text = fc.oneof(
  oddText,
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.string({ unit: 'grapheme', maxLength: 10 }),
);

export const parameterName = fc.oneof(
  fc.constantFrom(
    'name',
    'description',
    'ids',
    'names',
    'id',
    'email',
    'full_name',
    'password',
    'groups',
    'bless_groups',
    'login_denied_text',
    'user_regexp',
    'icon_url',
    'is_active',
    'is_open',
    'sort_key',
    'product',
    'component',
    'version',
    'default_assignee',
    'default_milestone',
    'classification',
    'group_controls',
    'values',
    'type',
    'display_name',
    'visibility_field',
    'visibility_values',
    'inclusions',
    'exclusions',
    'cc_list',
    'grant_group',
    'request_group',
    'revoked',
    'match',
    'limit',
    'include_fields',
    'exclude_fields',
    'membership',
    'announcehtml',
    'max_login_attempts',
    'maintainer',
    'requirelogin',
    'summary',
    'op_sys',
    'platform',
    'alias',
    'cc',
    'keywords',
    'status',
    'blocks',
    'depends_on',
    'comment',
    'flags',
    'tags',
    'add',
    'remove',
    'set',
    'token',
    'api_key',
    'login',
    'callback',
    '__proto__',
    'constructor',
    'class',
    'last_change_time',
  ),
  fc.string({ maxLength: 12 }),
);

export const value: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    text,
    fc.integer(),
    fc.double(),
    fc.constantFrom(0, -1, 2 ** 53, 2 ** 63, -(2 ** 31), 1e308, Number.MIN_VALUE),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(parameterName, tie('value'), { maxKeys: 4 }),
  ),
})).value;
