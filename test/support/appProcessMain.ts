import { startApiGateway } from '../../local/apiGatewayEmulator.ts';

/**
 * The entry of an installation served in a process of its own (appProcess.ts): the table,
 * bucket and engines come from the environment; the address goes to stdout as one JSON line.
 * The parent ends it with SIGTERM.
 */
const { url } = await startApiGateway({ port: 0 });
process.stdout.write(`${JSON.stringify({ url })}\n`);
