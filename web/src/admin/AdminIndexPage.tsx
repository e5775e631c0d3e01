import { AdminFrame } from './AdminFrame.tsx';
import { mayUseSection } from './access.ts';
import { ADMIN_SECTIONS, type AdminSection, KIND_TITLES } from './sections.ts';

/** admin.cgi: what the caller may administer, grouped as Bugzilla's admin page groups it. */
export function AdminIndexPage() {
  const usable = ADMIN_SECTIONS.filter(mayUseSection);
  const kinds = [...new Set(usable.map((s) => s.kind))] as AdminSection['kind'][];
  return (
    <AdminFrame cgi="admin" title="Administration">
      {usable.every((s) => s.groups.length === 0) && (
        <p>You may not change this installation's settings; these reports are open to everyone.</p>
      )}
      {kinds.map((kind) => (
        <section key={kind} aria-labelledby={`admin-${kind}`}>
          <h2 id={`admin-${kind}`}>{KIND_TITLES[kind]}</h2>
          <dl class="admin-index">
            {usable
              .filter((s) => s.kind === kind)
              .map((s) => (
                <div key={s.cgi}>
                  <dt>
                    <a href={`/${s.cgi}.cgi`}>{s.title}</a>
                  </dt>
                  <dd>{s.summary}</dd>
                </div>
              ))}
          </dl>
        </section>
      ))}
    </AdminFrame>
  );
}
