import type { FunctionComponent } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { describeError } from '../api/client.ts';
import type { AdminCgi } from '../lib/routes.ts';

/**
 * The administration pages and reports are a bundle of their own (esbuild splitting), fetched the
 * first time one is opened, so that the pages everyone uses stay small.
 */
type AdminPageType = FunctionComponent<{ cgi: AdminCgi; params: URLSearchParams }>;
let loaded: AdminPageType | undefined;

export function LazyAdminPage(props: { cgi: AdminCgi; params: URLSearchParams }) {
  const [Page, setPage] = useState<AdminPageType | undefined>(() => loaded);
  const [error, setError] = useState<unknown>(undefined);
  useEffect(() => {
    if (Page) return;
    import('./AdminPage.tsx').then(
      (m) => {
        loaded = m.AdminPage;
        setPage(() => m.AdminPage);
      },
      (e) => setError(e),
    );
  }, [Page]);
  if (error) {
    return (
      <p class="message error" role="alert">
        The administration pages could not be loaded: {describeError(error)} Reload the page to try again.
      </p>
    );
  }
  if (!Page) {
    return (
      <p class="loading" role="status">
        Loading…
      </p>
    );
  }
  return <Page {...props} />;
}
