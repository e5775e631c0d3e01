/**
 * `npm run invite -- --url URL --api-key KEY [--dry-run]`: after an import, mails every enabled
 * account without a password a link to set one, through the installation's own API
 * (POST /rest/account/invitations, editusers), in rounds of at most 50, with progress. Safe to
 * interrupt and to run again: whoever holds an invitation that has not lapsed is not mailed twice.
 */
import { parseArgs } from 'node:util';

const USAGE = `Usage: npm run invite -- --url URL --api-key KEY [--dry-run]

Mails every enabled account that has no password (the people an import brought) a link to set one.
  --url URL       the installation: http://localhost:8080 under npm start, or the stack's address
  --api-key KEY   an API key of a member of editusers (the administrator's)
  --dry-run       list who would be mailed, mail nobody
Mail goes out as mail_delivery_method says (Test keeps it in the outbox), with links under urlbase.
Run it again at any time: people already invited (in the last 14 days) are skipped.
`;

interface Round {
  candidates: number;
  invited: number;
  skipped: number;
  remaining: number;
  logins: string[];
}

export async function invite(argv: string[], out: (text: string) => void = (text) => process.stdout.write(text)) {
  const { values } = parseArgs({
    args: argv,
    options: {
      url: { type: 'string' },
      'api-key': { type: 'string' },
      'dry-run': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    out(USAGE);
    return 0;
  }
  if (!values.url || !values['api-key']) {
    out(`--url and --api-key are required.\n\n${USAGE}`);
    return 2;
  }
  const endpoint = `${values.url.replace(/\/+$/, '').replace(/\/rest$/, '')}/rest/account/invitations`;
  let invited = 0;
  let skipped = 0;
  for (;;) {
    const response = await fetch(endpoint, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-BUGZILLA-API-KEY': values['api-key'] },
      body: JSON.stringify({ dry_run: values['dry-run'] }),
    });
    const answer = (await response.json().catch(() => ({}))) as Round & { error?: boolean; message?: string };
    if (!response.ok || answer.error) {
      out(`Refused: ${answer.message ?? `HTTP ${response.status}`}\n`);
      return 1;
    }
    if (values['dry-run']) {
      out(`${answer.candidates} accounts have no password and would be invited:\n`);
      for (const login of answer.logins) out(`  ${login}\n`);
      return 0;
    }
    invited += answer.invited;
    skipped += answer.skipped;
    out(`invited ${invited}, already invited ${skipped}, of ${answer.candidates} accounts without a password\n`);
    // A round that reached nobody new and left nobody out is the last.
    if (answer.remaining === 0 || answer.invited === 0) break;
  }
  out(`Done: ${invited} invited now, ${skipped} held an invitation already.\n`);
  return 0;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  invite(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error) => {
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}
