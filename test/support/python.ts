import { existsSync } from 'node:fs';

/**
 * The Python that runs the tests' Python helpers: Debian's, where it is (CI, and where
 * python3-bugzilla lives), else the first `python3` on the PATH. A version manager's `python3`
 * on the PATH can be a shim that costs a second of CPU to start (pyenv's here), more than the
 * work of the scripts the tests start with it.
 */
export const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
