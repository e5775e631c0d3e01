/**
 * The seed tool's catalogue, created through the HTTP API (users, a security group, keywords, flag
 * types, products and components) so that it is exactly what an administrator would have made.
 */
import { KEYWORDS, PRODUCTS, SECURE_PRODUCT } from './seedVocabulary.ts';

/** The running API (catalogue writes) and an administrator's API key. */
export interface ApiTarget {
  url: string;
  apiKey: string;
}

export interface SeededProduct {
  id: number;
  name: string;
  components: number[];
  /** The ids of its version `unspecified` and milestone `---`, which every generated bug has. */
  versionId: number;
  milestoneId: number;
  /** How likely a generated bug is to land in this product. */
  weight: number;
  secure: boolean;
  /** Bugs generated in it so far. */
  count: number;
}

export interface SeededCatalogue {
  securityGroup: number;
  userIds: number[];
  keywordIds: number[];
  flagTypeIds: number[];
  products: SeededProduct[];
}

/** Answers Bugzilla gives when concurrent writes raced and nothing was saved: safe to send again. */
const TRY_AGAIN = /please try again/;

export async function api(options: ApiTarget, method: string, path: string, body?: unknown): Promise<any> {
  for (let attempt = 1; ; attempt++) {
    const response = await fetch(`${options.url}/rest${path}`, {
      method,
      headers: { 'Content-Type': 'application/json', 'X-BUGZILLA-API-KEY': options.apiKey },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const parsed = (await response.json()) as any;
    if (response.ok && !parsed?.error) return parsed;
    // The seed creates users 16 at a time, as a provisioning script would; a busy machine can
    // make one of them lose every race of its request, which says nothing was saved.
    if (attempt < 5 && TRY_AGAIN.test(String(parsed?.message))) {
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
      continue;
    }
    throw new Error(`${method} ${path}: ${JSON.stringify(parsed)}`);
  }
}

export async function createCatalogue(options: ApiTarget, userCount: number): Promise<SeededCatalogue> {
  await api(options, 'GET', '/whoami'); // a wrong API key fails here, before anything is created
  const securityGroup = (
    await api(options, 'POST', '/group', { name: 'security-team', description: 'Security team', is_active: true })
  ).id as number;
  const userIds: number[] = [];
  const userLogins = new Map<number, string>();
  for (let start = 0; start < userCount; start += 16) {
    const created = await Promise.all(
      Array.from({ length: Math.min(16, userCount - start) }, (_, offset) => {
        const n = start + offset + 1;
        const login = `user${String(n).padStart(4, '0')}@seed.example`;
        return api(options, 'POST', '/user', { email: login, full_name: `Seed User ${n}` }).then((result) => ({
          id: result.id as number,
          login,
        }));
      }),
    );
    for (const { id, login } of created) {
      userIds.push(id);
      userLogins.set(id, login);
    }
  }
  const securityMembers = userIds.slice(0, 20);
  for (const id of securityMembers) await api(options, 'PUT', `/user/${id}`, { groups: { add: ['security-team'] } });
  const keywordIds: number[] = [];
  for (const name of KEYWORDS)
    keywordIds.push((await api(options, 'POST', '/keyword', { name, description: `${name} bugs` })).id);
  const flagTypeIds = [
    (
      await api(options, 'POST', '/flag_type', {
        name: 'needinfo',
        description: 'More information needed',
        is_requestable: true,
        is_requesteeble: true,
      })
    ).id as number,
    (
      await api(options, 'POST', '/flag_type', {
        name: 'approval',
        description: 'Release approval',
        is_requestable: true,
      })
    ).id as number,
  ];
  const products: SeededProduct[] = [];
  for (const [index, [name, components]] of PRODUCTS.entries()) {
    const secure = name === SECURE_PRODUCT;
    await api(options, 'POST', '/product', {
      name,
      description: `${name} product`,
      version: 'unspecified',
      ...(secure
        ? {
            group_controls: [
              { group: 'security-team', entry: true, membercontrol: 'MANDATORY', othercontrol: 'MANDATORY' },
            ],
          }
        : {}),
    });
    const componentIds: number[] = [];
    for (const component of components) {
      const owner = userLogins.get(userIds[(index * 7 + componentIds.length) % userIds.length])!;
      componentIds.push(
        (
          await api(options, 'POST', '/component', {
            product: name,
            name: component,
            description: `${component} of ${name}`,
            default_assignee: owner,
          })
        ).id,
      );
    }
    // Product sizes vary a lot, as in real trackers: a few large products, a long tail.
    products.push({
      id: 0,
      name,
      components: componentIds,
      versionId: 0,
      milestoneId: 0,
      weight: 1 / (index + 1) ** 1.6,
      secure,
      count: 0,
    });
  }
  const catalogue = await api(options, 'GET', `/product?type=accessible&include_fields=id,name,versions,milestones`);
  type Named = { id: number; name: string };
  for (const product of products) {
    const found = catalogue.products.find((entry: Named) => entry.name === product.name);
    product.id = found.id;
    product.versionId = found.versions.find((value: Named) => value.name === 'unspecified').id;
    product.milestoneId = found.milestones.find((value: Named) => value.name === '---').id;
  }
  return { securityGroup, userIds, keywordIds, flagTypeIds, products };
}
