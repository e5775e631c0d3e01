import { existsSync } from 'node:fs';

/** Debian's Python: the one Debian's python3-bugzilla and `bugzilla` command run with. */
export const DEBIAN_PYTHON = '/usr/bin/python3';

/**
 * The Python that runs the tests' own Python helpers: Debian's, where it is (CI), else the first
 * `python3` on the PATH. A version manager's `python3` on the PATH can be a shim that costs a
 * second of CPU to start (pyenv's here), more than the work of the scripts the tests start with it.
 */
export const PYTHON = existsSync(DEBIAN_PYTHON) ? DEBIAN_PYTHON : 'python3';
