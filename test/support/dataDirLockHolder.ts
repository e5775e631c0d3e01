import { lockDataDir } from '../../local/dataDirLock.ts';

/** A program that holds a data directory's lock until it is killed (dataDirLock.test.ts). */
lockDataDir(process.argv[2]!, process.argv[3] ?? 'lock holder');
process.stdout.write('locked\n');
setInterval(() => undefined, 60_000);
