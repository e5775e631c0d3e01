import { useState } from 'preact/hooks';
import { get } from '../api/client.ts';
import type { Bug } from '../api/types.ts';
import { ErrorMessage, Loading } from '../components/Messages.tsx';
import { useLoad } from '../components/useLoad.ts';
import { bugHref } from '../lib/routes.ts';
import { navigate } from '../state/router.ts';
import { AdminFrame } from './AdminFrame.tsx';
import { dependencyTree, type TreeNode } from './reportLogic.ts';

type TreeBug = Pick<Bug, 'id' | 'summary' | 'status' | 'resolution' | 'is_open' | 'depends_on' | 'blocks'>;

const MAX_DEPTH = 10;
const FIELDS = 'id,summary,status,resolution,is_open,depends_on,blocks';

/**
 * Reads the bugs around `id` level by level (one search per level), up to MAX_DEPTH levels in
 * both directions. Bugs the caller may not see are left out by the API.
 */
async function loadNeighbourhood(id: string): Promise<{ root: number; bugs: Map<number, TreeBug> }> {
  const bugs = new Map<number, TreeBug>();
  const first = await get<{ bugs: TreeBug[] }>(`/bug/${encodeURIComponent(id)}`, { include_fields: FIELDS });
  const root = first.bugs[0]!;
  bugs.set(root.id, root);
  let frontier = [root];
  for (let depth = 0; depth < MAX_DEPTH && frontier.length > 0; depth++) {
    const wanted = [...new Set(frontier.flatMap((b) => [...b.depends_on, ...b.blocks]))].filter((n) => !bugs.has(n));
    if (wanted.length === 0) break;
    const found = await get<{ bugs: TreeBug[] }>('/bug', { id: wanted, include_fields: FIELDS, limit: 0 });
    for (const b of found.bugs) bugs.set(b.id, b);
    frontier = found.bugs;
  }
  return { root: root.id, bugs };
}

/** showdependencytree.cgi?id=N: the bugs N depends on, and the bugs it blocks, as trees. */
export function DependencyTreePage({ params }: { params: URLSearchParams }) {
  const id = params.get('id') ?? '';
  const [text, setText] = useState(id);
  return (
    <AdminFrame cgi="showdependencytree" title={id ? `Dependency tree of bug ${id}` : 'Dependency tree'}>
      <form
        class="admin-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (text.trim()) navigate(`/showdependencytree.cgi?id=${encodeURIComponent(text.trim())}`);
        }}
      >
        <label>
          Bug number or alias
          <input value={text} onInput={(e) => setText(e.currentTarget.value)} />
        </label>
        <p>
          <button type="submit">Show the tree</button>
        </p>
      </form>
      {id && <Trees key={id} id={id} hideResolved={params.get('hide_resolved') === '1'} />}
    </AdminFrame>
  );
}

function Trees({ id, hideResolved }: { id: string; hideResolved: boolean }) {
  const data = useLoad(() => loadNeighbourhood(id), [id]);
  if (data.error) return <ErrorMessage error={data.error} />;
  if (!data.data) return <Loading what="the dependency tree" />;
  const { root, bugs } = data.data;
  const visible = (n: number) => bugs.has(n) && (!hideResolved || bugs.get(n)!.is_open);
  const dependsOn = dependencyTree(root, (n) => (bugs.get(n)?.depends_on ?? []).filter(visible), MAX_DEPTH);
  const blocks = dependencyTree(root, (n) => (bugs.get(n)?.blocks ?? []).filter(visible), MAX_DEPTH);
  const toggle = `/showdependencytree.cgi?id=${encodeURIComponent(id)}${hideResolved ? '' : '&hide_resolved=1'}`;
  return (
    <>
      <p>
        <a href={bugHref(root)}>Back to bug {root}</a> ·{' '}
        <a href={toggle}>{hideResolved ? 'Show' : 'Hide'} resolved bugs</a>
      </p>
      <section aria-labelledby="tree-depends">
        <h2 id="tree-depends">Bug {root} depends on</h2>
        <Tree node={dependsOn} bugs={bugs} empty="It depends on no bugs." />
      </section>
      <section aria-labelledby="tree-blocks">
        <h2 id="tree-blocks">Bug {root} blocks</h2>
        <Tree node={blocks} bugs={bugs} empty="It blocks no bugs." />
      </section>
    </>
  );
}

function Tree({ node, bugs, empty }: { node: TreeNode; bugs: Map<number, TreeBug>; empty: string }) {
  if (!node.children || node.children.length === 0) return <p>{empty}</p>;
  return <Branch nodes={node.children} bugs={bugs} />;
}

function Branch({ nodes, bugs }: { nodes: TreeNode[]; bugs: Map<number, TreeBug> }) {
  return (
    <ul class="dependency-tree">
      {nodes.map((n) => {
        const bug = bugs.get(n.id);
        return (
          <li key={n.id}>
            <a href={bugHref(n.id)} class={bug?.is_open === false ? 'closed-bug' : undefined}>
              Bug {n.id}
            </a>{' '}
            {bug && (
              <>
                [{bug.status}
                {bug.resolution ? ` ${bug.resolution}` : ''}] {bug.summary}
              </>
            )}
            {n.repeated && <span class="hint"> (shown above)</span>}
            {n.children === null && !n.repeated && <span class="hint"> (more below, not shown)</span>}
            {n.children && n.children.length > 0 && <Branch nodes={n.children} bugs={bugs} />}
          </li>
        );
      })}
    </ul>
  );
}
