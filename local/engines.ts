import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer, Socket } from 'node:net';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import S3rver from 's3rver';
import { type DataDirLock, lockDataDir } from './dataDirLock.ts';

/**
 * The local stand-ins for AWS: the real DynamoDB Local jar (shipped inside the npm package
 * amplify-dynamodb-simulator, run with our own `java` command because the package's launcher is
 * broken) and s3rver. Both keep their data on disk unless asked to run in memory, and both listen
 * on 127.0.0.1 only: neither checks who calls (README, "Running locally").
 */
export interface LocalEngines {
  dynamodbEndpoint: string;
  s3Endpoint: string;
  stop(): Promise<void>;
}

export interface EngineOptions {
  /** Directory for data; omitted = DynamoDB in memory and S3 in a throwaway directory. */
  dataDir?: string;
  /** Where s3rver keeps objects when dataDir is omitted. */
  scratchDir?: string;
  /**
   * Run DynamoDB Local in a process group of its own, so that Ctrl-C in a terminal reaches only
   * this process (the importer stops after its batch, then stops the engine); it is still killed
   * when this process exits.
   */
  ownProcessGroup?: boolean;
  /**
   * Who runs the engines on dataDir, for the lock they hold on it (dataDirLock.ts): `npm start`,
   * `npm run seed`. Another program on the same directory is refused, naming this one.
   */
  command?: string;
}

export class JavaMissingError extends Error {
  constructor() {
    super(
      'Tracker needs Java 17 or newer to run DynamoDB Local: install it (for example `sudo apt-get install openjdk-17-jre-headless`) and try again.',
    );
  }
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

function dynamodbJarDirectory(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('amplify-dynamodb-simulator/package.json')), 'emulator');
}

/** Java's modules; whether it has jdk.compiler tells whether it runs DynamoDbLocalOnLoopback.java. */
function javaModules(): string {
  const probe = spawnSync('java', ['--list-modules'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) throw new JavaMissingError();
  return probe.stdout;
}

/**
 * How to run the jar: through DynamoDbLocalOnLoopback.java, which binds it to 127.0.0.1 (the jar
 * itself listens on every interface and has no option for it). A Java without a compiler cannot
 * run a source file; it then runs the jar as it is, and says so.
 */
function dynamodbLauncher(jarDirectory: string): string[] {
  const jar = join(jarDirectory, 'DynamoDBLocal.jar');
  const classPath = [jar, join(jarDirectory, 'DynamoDBLocal_lib', '*')].join(delimiter);
  const source = join(dirname(fileURLToPath(import.meta.url)), 'DynamoDbLocalOnLoopback.java');
  const compiled = compiledLauncher(source, classPath);
  if (compiled) return ['-cp', [classPath, compiled].join(delimiter), 'DynamoDbLocalOnLoopback'];
  if (javaModules().includes('jdk.compiler@')) return ['-cp', classPath, source];
  console.warn(
    'DynamoDB Local listens on every network interface: this Java has no jdk.compiler module to bind it to 127.0.0.1. Install a full JDK (openjdk-17-jdk-headless) or keep this machine off untrusted networks.',
  );
  return ['-jar', jar];
}

/**
 * The launcher compiled once, with javac when this machine has it, into node_modules/.cache (by
 * the hash of its source and of the Java version). Run as a source file instead, every start
 * compiles it again: about 3 s of CPU, paid by each engine a test run or `npm start` starts.
 * Returns the class directory, or null to run the source file.
 */
function compiledLauncher(source: string, classPath: string): string | null {
  const version = spawnSync('java', ['-version'], { encoding: 'utf8' });
  if (version.error || version.status !== 0) throw new JavaMissingError();
  const hash = createHash('sha256').update(readFileSync(source)).update(version.stderr).digest('hex').slice(0, 16);
  const cache = join(process.cwd(), 'node_modules', '.cache', 'tracker-dynamodb-launcher');
  const classes = join(cache, hash);
  if (existsSync(join(classes, 'DynamoDbLocalOnLoopback.class'))) return classes;
  try {
    mkdirSync(cache, { recursive: true });
    // Compiled beside and renamed into place, so that engines starting together never see half a class.
    const scratch = mkdtempSync(join(cache, 'compiling-'));
    const javac = spawnSync('javac', ['-nowarn', '-cp', classPath, '-d', scratch, source], { encoding: 'utf8' });
    if (javac.error || javac.status !== 0) {
      rmSync(scratch, { recursive: true, force: true });
      return null;
    }
    try {
      renameSync(scratch, classes);
    } catch {
      rmSync(scratch, { recursive: true, force: true }); // another engine's compile won the race
    }
    return existsSync(join(classes, 'DynamoDbLocalOnLoopback.class')) ? classes : null;
  } catch {
    return null;
  }
}

async function waitForPort(port: number, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`DynamoDB Local exited with code ${child.exitCode}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = new Socket();
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
      socket.connect(port, '127.0.0.1');
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`DynamoDB Local did not start listening on port ${port} within ${timeoutMs} ms`);
}

async function startDynamodb(
  port: number,
  dataDir: string | undefined,
  ownProcessGroup = false,
): Promise<ChildProcess> {
  const jarDirectory = dynamodbJarDirectory();
  const launcher = dynamodbLauncher(jarDirectory);
  const storage = dataDir ? ['-dbPath', dataDir] : ['-inMemory'];
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const child = spawn(
    'java',
    [
      `-Djava.library.path=${join(jarDirectory, 'DynamoDBLocal_lib')}`,
      // 512 MB holds a seeded 100,000-bug installation on disk; in-memory tables of that size
      // (bench:import holds two) need more: TRACKER_DYNAMODB_HEAP=2g.
      `-Xmx${process.env.TRACKER_DYNAMODB_HEAP ?? '512m'}`,
      // The test run asks for a cheaper JIT and collector (test/support/engineJvmOptions.ts).
      ...(process.env.TRACKER_DYNAMODB_JVM_OPTIONS?.split(/\s+/).filter(Boolean) ?? []),
      ...launcher,
      '-sharedDb',
      '-disableTelemetry',
      '-port',
      String(port),
      ...storage,
    ],
    // Standard input is a pipe held open for the engine's life: DynamoDbLocalOnLoopback.java stops
    // when it closes, so the engine never outlives this process.
    { cwd: jarDirectory, stdio: ['pipe', 'ignore', 'inherit'], detached: ownProcessGroup },
  );
  if (ownProcessGroup) {
    const killOnExit = () => child.kill();
    process.once('exit', killOnExit);
    child.once('exit', () => process.off('exit', killOnExit));
  }
  try {
    // A JVM compiling its launcher takes a few seconds alone and far longer on a busy machine.
    await waitForPort(port, child, 240_000);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return child;
}

export async function startEngines(options: EngineOptions = {}): Promise<LocalEngines> {
  // Before anything runs on the directory: one program at a time writes it.
  const lock = options.dataDir ? lockDataDir(options.dataDir, options.command) : undefined;
  try {
    return await startEnginesHolding(options, lock);
  } catch (error) {
    lock?.release();
    throw error;
  }
}

async function startEnginesHolding(options: EngineOptions, lock: DataDirLock | undefined): Promise<LocalEngines> {
  const [dynamodbPort, s3Port] = await Promise.all([
    freePortOr(process.env.TRACKER_DYNAMODB_PORT),
    freePortOr(process.env.TRACKER_S3_PORT),
  ]);
  const dynamodb = await startDynamodb(
    dynamodbPort,
    options.dataDir && join(options.dataDir, 'dynamodb'),
    options.ownProcessGroup,
  );
  const s3Directory = options.dataDir
    ? join(options.dataDir, 's3')
    : (options.scratchDir ?? join(process.cwd(), '.data', 'scratch-s3'));
  mkdirSync(s3Directory, { recursive: true });
  const s3 = new S3rver({
    // s3rver serves any object to a request without a signature: never beyond this machine.
    address: '127.0.0.1',
    port: s3Port,
    directory: s3Directory,
    silent: true,
    resetOnClose: !options.dataDir,
  });
  try {
    await s3.run();
  } catch (error) {
    dynamodb.kill('SIGTERM');
    throw error;
  }
  return {
    dynamodbEndpoint: `http://127.0.0.1:${dynamodbPort}`,
    s3Endpoint: `http://127.0.0.1:${s3Port}`,
    async stop() {
      await s3.close().catch(() => undefined);
      await stopProcess(dynamodb);
      lock?.release();
    },
  };
}

/**
 * One more in-memory DynamoDB Local, on a free port (the test run gives each worker its own).
 * Stopping it drops everything it held.
 */
export async function startDynamodbLocal(): Promise<{ endpoint: string; stop(): Promise<void> }> {
  const port = await freePort();
  const dynamodb = await startDynamodb(port, undefined);
  return {
    endpoint: `http://127.0.0.1:${port}`,
    stop: () => stopProcess(dynamodb),
  };
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

async function freePortOr(configured: string | undefined): Promise<number> {
  return configured ? Number(configured) : freePort();
}
