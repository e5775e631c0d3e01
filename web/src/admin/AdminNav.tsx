import type { AdminCgi } from '../lib/routes.ts';
import { mayUseSection } from './access.ts';
import { ADMIN_SECTIONS } from './sections.ts';

/** The administration menu: the pages the caller may use, the current one marked. */
export function AdminNav({ current }: { current: AdminCgi }) {
  const sections = ADMIN_SECTIONS.filter(mayUseSection);
  return (
    <nav aria-label="Administration" class="admin-nav">
      <ul>
        <li>
          <a href="/admin.cgi" aria-current={current === 'admin' ? 'page' : undefined}>
            Overview
          </a>
        </li>
        {sections.map((s) => (
          <li key={s.cgi}>
            <a href={`/${s.cgi}.cgi`} aria-current={current === s.cgi ? 'page' : undefined}>
              {s.title}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
