import { useState } from 'preact/hooks';

/**
 * A change sent from an admin page: while it runs the button is busy; afterwards either the
 * status line says what was done or the page shows the API's own message (Bugzilla's words).
 */
export interface Action {
  busy: boolean;
  error: unknown;
  done: string;
  run: (work: () => Promise<unknown>, doneText: string) => Promise<boolean>;
  clear: () => void;
}

export function useAction(): Action {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const [done, setDone] = useState('');
  return {
    busy,
    error,
    done,
    async run(work, doneText) {
      setBusy(true);
      setError(undefined);
      setDone('');
      try {
        await work();
        setDone(doneText);
        return true;
      } catch (e) {
        setError(e);
        return false;
      } finally {
        setBusy(false);
      }
    },
    clear() {
      setError(undefined);
      setDone('');
    },
  };
}
