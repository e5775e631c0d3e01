import { useState } from 'preact/hooks';
import { announce } from '../../state/router.ts';

/**
 * One change at a time on an admin page: while it runs its button is busy; a refusal keeps the
 * API's message (Bugzilla's words) for the page to show; success is announced and the page reloads
 * what it shows.
 */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const [done, setDone] = useState('');
  async function run(work: () => Promise<unknown>, success: string, after?: () => void): Promise<boolean> {
    setBusy(true);
    setError(undefined);
    setDone('');
    try {
      await work();
      setDone(success);
      announce(success);
      after?.();
      return true;
    } catch (e) {
      setError(e);
      return false;
    } finally {
      setBusy(false);
    }
  }
  return { busy, error, done, run, clear: () => setError(undefined) };
}
