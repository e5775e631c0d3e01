import { startEngines } from '../../local/engines.ts';

// Starts the local engines on the data directory given, as `npm start` does, prints their
// endpoints as one JSON line, and waits to be killed (test/integration/engineLifetime.test.ts).
const engines = await startEngines({ dataDir: process.argv[2]!, ownProcessGroup: process.argv[3] === 'own-group' });
process.stdout.write(`${JSON.stringify({ dynamodbEndpoint: engines.dynamodbEndpoint })}\n`);
setInterval(() => undefined, 60_000);
