/**
 * Binary attribute values of a read's DynamoDB JSON, from the base64 text the wire carries to the
 * bytes the SDK would have given (dynamoClient.ts parses successful reads itself). The values sit
 * in the items of the read's output, and in lists and maps inside them.
 */

type AttributeValue = { B?: unknown; BS?: unknown; L?: unknown; M?: unknown };
type Item = Record<string, AttributeValue>;

const bytesOf = (text: string): Uint8Array => {
  const buffer = Buffer.from(text, 'base64');
  return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
};

function decodeValue(value: AttributeValue): void {
  if (typeof value.B === 'string') value.B = bytesOf(value.B);
  else if (Array.isArray(value.BS)) value.BS = value.BS.map((text: string) => bytesOf(text));
  else if (Array.isArray(value.L)) for (const entry of value.L as AttributeValue[]) decodeValue(entry);
  else if (value.M && typeof value.M === 'object') decodeItem(value.M as Item);
}

function decodeItem(item: Item | undefined): void {
  if (!item || typeof item !== 'object') return;
  for (const name in item) {
    const value = item[name];
    if (value && typeof value === 'object') decodeValue(value);
  }
}

const decodeItems = (items: unknown) => {
  if (Array.isArray(items)) for (const item of items) decodeItem(item as Item);
};

/**
 * Decodes in place every binary value of a GetItem, BatchGetItem, Query or Scan output: `Item`,
 * `Items`, each table's `Responses`, the keys of `LastEvaluatedKey` and `UnprocessedKeys`.
 */
export function decodeBinaryAttributes(output: Record<string, unknown>): void {
  decodeItem(output.Item as Item | undefined);
  decodeItems(output.Items);
  decodeItem(output.LastEvaluatedKey as Item | undefined);
  const responses = output.Responses as Record<string, unknown> | undefined;
  if (responses) for (const table in responses) decodeItems(responses[table]);
  const unprocessed = output.UnprocessedKeys as Record<string, { Keys?: unknown }> | undefined;
  if (unprocessed) for (const table in unprocessed) decodeItems(unprocessed[table]?.Keys);
}
