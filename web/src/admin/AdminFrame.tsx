import type { ComponentChildren } from 'preact';
import { LoginRequired } from '../account/LoginPage.tsx';
import type { AdminCgi } from '../lib/routes.ts';
import { session } from '../state/session.ts';
import { AdminNav } from './AdminNav.tsx';
import { mayUseSection } from './access.ts';
import { sectionFor } from './sections.ts';

/**
 * Every administration page inside the same frame: the menu beside it, and in place of the page,
 * for someone who may not use it, only a sentence saying which group it needs (no controls).
 */
export function AdminFrame({
  cgi,
  title,
  children,
}: {
  cgi: AdminCgi;
  /** The page's heading (defaults to the section's title). */
  title?: string;
  children: ComponentChildren;
}) {
  const section = sectionFor(cgi);
  const heading = title ?? section?.title ?? 'Administration';
  const needsLogin = section ? section.groups.length > 0 : cgi !== 'admin';
  let body: ComponentChildren = children;
  if (needsLogin && !session.value) {
    body = <LoginRequired what={`use ${heading}`} />;
  } else if (section && !mayUseSection(section)) {
    body = (
      <p class="message" role="alert">
        {heading} is only for members of {section.groups.join(' or ')}. You are not allowed to use this page.
      </p>
    );
  }
  return (
    <div class="admin-layout">
      <AdminNav current={cgi} />
      <div class="admin-body">
        <h1>{heading}</h1>
        {body}
      </div>
    </div>
  );
}
