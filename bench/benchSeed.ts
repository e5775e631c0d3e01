/**
 * What `npm run bench` loads before the load: users, a catalogue and bugs (with CCs, dependencies,
 * history, a 50-comment conversation and attachments) created through the HTTP API, as users would.
 */
import { ADMIN, BENCH_BUGS, elapsed, USER_COUNT, USER_PASSWORD } from './benchSettings.ts';

export interface Seeded {
  users: Array<{ login: string; name: string }>;
  products: Array<{ name: string; components: number }>;
  /** Bugs filed through the API, each with CCs, most with a dependency and some history. */
  bugIds: number[];
  /** A bug with 50 comments (the description and 49 more), for the comments scenario. */
  chattyBugId: number;
  /** A bug with five small attachments, for the attachment metadata scenario. */
  attachmentBugId: number;
  /** A 1,000 KB attachment (the default maxattachmentsize), for the download scenario. */
  largeAttachmentId: number;
  requests: number;
  seconds: number;
}

/** The largest attachment Bugzilla's default maxattachmentsize (1000 KB) accepts. */
export const LARGE_ATTACHMENT = Buffer.alloc(1000 * 1024, 'Tracker bench attachment. ').toString('base64');

async function api(
  baseUrl: string,
  method: string,
  path: string,
  body?: unknown,
  apiKey: string | undefined = ADMIN.apiKey,
): Promise<any> {
  const headers: Record<string, string> = {};
  if (apiKey) headers['X-BUGZILLA-API-KEY'] = apiKey;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : undefined;
}

/** Runs tasks with at most `limit` at a time. */
async function inParallel<T>(limit: number, tasks: Array<() => Promise<T>>): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, tasks.length) }, async () => {
      while (next < tasks.length) {
        const index = next++;
        results[index] = await tasks[index]!();
      }
    }),
  );
  return results;
}

const FIRST_NAMES = [
  'Ada',
  'Alan',
  'Grace',
  'Linus',
  'Margaret',
  'Dennis',
  'Barbara',
  'Ken',
  'Frances',
  'Edsger',
  'Radia',
  'Donald',
  'Sophie',
  'Tim',
  'Hedy',
  'John',
  'Katherine',
];
const LAST_NAMES = [
  'Lovelace',
  'Turing',
  'Hopper',
  'Torvalds',
  'Hamilton',
  'Ritchie',
  'Liskov',
  'Thompson',
  'Allen',
  'Dijkstra',
  'Perlman',
  'Knuth',
  'Wilson',
  'Berners-Lee',
  'Lamarr',
  'Backus',
  'Johnson',
];

const CATALOGUE: Array<{
  name: string;
  description: string;
  versions: string[];
  milestones: string[];
  components: string[];
}> = [
  {
    name: 'TestProduct', // created by the bootstrap with TestComponent; extended here
    description: '',
    versions: ['1.0', '1.1', '2.0', '2.1'],
    milestones: ['M1', 'M2', 'M3', '2.0', '2.1'],
    components: ['Backend', 'Frontend', 'Documentation', 'Installation', 'Security', 'Performance', 'Accessibility'],
  },
  {
    name: 'Server',
    description: 'The server and its REST API',
    versions: ['3.0', '3.1', '3.2'],
    milestones: ['3.1', '3.2', '4.0'],
    components: ['API', 'Database', 'Authentication', 'Search', 'Email'],
  },
  {
    name: 'Desktop Client',
    description: 'The desktop application for Windows, macOS and Linux',
    versions: ['5.0', '5.1'],
    milestones: ['5.1', '6.0'],
    components: ['UI', 'Sync', 'Installer', 'Preferences'],
  },
  {
    name: 'Mobile App',
    description: 'Android and iOS apps',
    versions: ['1.0', '1.2'],
    milestones: ['1.3', '2.0'],
    components: ['Android', 'iOS', 'Notifications'],
  },
];

export async function seedThroughApi(baseUrl: string): Promise<Seeded> {
  const started = performance.now();
  let requests = 0;
  const call = (method: string, path: string, body?: unknown) => {
    requests += 1;
    return api(baseUrl, method, path, body);
  };

  const users = Array.from({ length: USER_COUNT }, (_, index) => {
    const number = String(index + 1).padStart(2, '0');
    const first = FIRST_NAMES[index % FIRST_NAMES.length]!;
    const last = LAST_NAMES[(index * 7) % LAST_NAMES.length]!;
    return { login: `user${number}@bench.test`, name: `${first} ${last}` };
  });
  await inParallel(
    4,
    users.map(
      (user) => () => call('POST', '/rest/user', { email: user.login, full_name: user.name, password: USER_PASSWORD }),
    ),
  );

  let userIndex = 0;
  const nextUser = () => users[userIndex++ % users.length]!.login;
  const products: Seeded['products'] = [];
  for (const product of CATALOGUE) {
    const [firstVersion, ...moreVersions] = product.versions;
    const [firstMilestone] = product.milestones;
    let components = 0;
    if (product.name === 'TestProduct') {
      components = 1;
      for (const version of product.versions)
        await call('POST', `/rest/product/${encodeURIComponent(product.name)}/version`, { name: version });
      for (const milestone of product.milestones)
        await call('POST', `/rest/product/${encodeURIComponent(product.name)}/milestone`, { name: milestone });
    } else {
      await call('POST', '/rest/product', {
        name: product.name,
        description: product.description,
        version: firstVersion,
        default_milestone: firstMilestone,
        has_unconfirmed: true,
      });
      for (const version of moreVersions)
        await call('POST', `/rest/product/${encodeURIComponent(product.name)}/version`, { name: version });
      for (const milestone of product.milestones.slice(1))
        await call('POST', `/rest/product/${encodeURIComponent(product.name)}/milestone`, { name: milestone });
    }
    for (const component of product.components) {
      await call('POST', '/rest/component', {
        product: product.name,
        name: component,
        description: `${component} of ${product.name}`,
        default_assignee: nextUser(),
        default_qa_contact: nextUser(),
        default_cc: [nextUser(), nextUser()],
      });
      components += 1;
    }
    products.push({ name: product.name, components });
  }

  // Bugs through the API, as users file them: spread over the products, two CCs each, a
  // dependency on an earlier bug for most, then a few changes each so history has entries.
  const bugIds: number[] = [];
  const productComponents = CATALOGUE.flatMap((product) =>
    (product.name === 'TestProduct' ? ['TestComponent', ...product.components] : product.components).map(
      (component) => ({ product, component }),
    ),
  );
  for (let start = 0; start < BENCH_BUGS; start += 8) {
    const batch = Array.from({ length: Math.min(8, BENCH_BUGS - start) }, (_, offset) => start + offset);
    const created = await Promise.all(
      batch.map((index) => {
        const { product, component } = productComponents[index % productComponents.length]!;
        return call('POST', '/rest/bug', {
          ...benchBug(index),
          product: product.name,
          component,
          version: product.versions[0],
          cc: [users[index % users.length]!.login, users[(index * 3 + 1) % users.length]!.login],
          ...(bugIds.length > 0 && index % 4 !== 0 ? { depends_on: [bugIds[(index * 7) % bugIds.length]] } : {}),
        });
      }),
    );
    for (const answer of created) if (typeof answer?.id === 'number') bugIds.push(answer.id);
  }
  await inParallel(
    4,
    bugIds.map(
      (id, index) => () =>
        call('PUT', `/rest/bug/${id}`, {
          priority: ['High', 'Low', 'Normal'][index % 3],
          whiteboard: `seeded ${index}`,
          comment: { body: 'Seeded change' },
        }),
    ),
  );

  // A long conversation (Bugzilla's reference figure is for a bug's comments) and attachments.
  const chattyBugId = bugIds[0]!;
  const have = (await call('GET', `/rest/bug/${chattyBugId}/comment`)).bugs[chattyBugId].comments.length;
  for (let count = have; count < 50; count++) {
    await call('POST', `/rest/bug/${chattyBugId}/comment`, {
      comment: `Comment ${count} of the bench conversation: ${benchBug(count).description}`,
    });
  }
  const attachmentBugId = bugIds[1]!;
  for (let index = 0; index < 5; index++) {
    await call('POST', `/rest/bug/${attachmentBugId}/attachment`, {
      data: Buffer.from(`log line ${index}\n`.repeat(200)).toString('base64'),
      file_name: `log-${index}.txt`,
      summary: `Log ${index}`,
      content_type: 'text/plain',
    });
  }
  const [largeAttachmentId] = (
    await call('POST', `/rest/bug/${bugIds[2]}/attachment`, {
      data: LARGE_ATTACHMENT,
      file_name: 'large.bin',
      summary: 'A 1000 KB file',
      content_type: 'application/octet-stream',
    })
  ).ids;
  return {
    users,
    products,
    bugIds,
    chattyBugId,
    attachmentBugId,
    largeAttachmentId,
    requests,
    seconds: elapsed(started),
  };
}

const SUMMARY_WORDS = [
  'crash',
  'toolbar',
  'resize',
  'sync',
  'login',
  'slow',
  'memory',
  'leak',
  'dialog',
  'freeze',
  'render',
  'install',
  'update',
  'notification',
  'timeout',
];
export const benchBug = (index: number) => ({
  summary: `${SUMMARY_WORDS[index % SUMMARY_WORDS.length]} ${SUMMARY_WORDS[(index * 5 + 3) % SUMMARY_WORDS.length]} when ${SUMMARY_WORDS[(index * 11 + 7) % SUMMARY_WORDS.length]} (#${index})`,
  description: `Steps to reproduce ${index}:\n1. open\n2. watch it ${SUMMARY_WORDS[index % SUMMARY_WORDS.length]}`,
  op_sys: 'Linux',
  platform: 'PC',
  severity: ['major', 'normal', 'minor'][index % 3],
});
