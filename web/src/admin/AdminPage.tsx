import type { AdminCgi } from '../lib/routes.ts';
import { AdminFrame } from './AdminFrame.tsx';
import { ADMIN_PAGES } from './pages.tsx';

/** The entry of the administration bundle (a chunk of its own, imported when first needed). */
export function AdminPage({ cgi, params }: { cgi: AdminCgi; params: URLSearchParams }) {
  const Page = ADMIN_PAGES[cgi];
  if (!Page) {
    return (
      <AdminFrame cgi={cgi}>
        <p>This page is not built yet.</p>
      </AdminFrame>
    );
  }
  return <Page params={params} />;
}
