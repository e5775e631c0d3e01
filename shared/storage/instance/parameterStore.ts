import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { AuditEntry } from '../../domain/instance/audit.ts';
import { DEFAULT_PARAMETERS, type ParameterChange, type Parameters } from '../../domain/instance/parameters.ts';
import { cachedCatalogRead } from '../catalog/catalogCache.ts';
import { documentClient, tableName } from '../dynamoClient.ts';
import { keys } from '../keys.ts';
import { WriteTransaction } from '../transaction.ts';
import { recordAudit } from './auditStore.ts';

/** Parameters live in one item; defaults fill in names added by later versions of Tracker. */
export function loadParameters(): Promise<Parameters> {
  return cachedCatalogRead('parameters', async () => {
    // Strongly consistent: the copy is kept by the instance until the catalogue stamp moves
    // again, so a lagging read would not be a moment's staleness but a lasting one.
    const result = await documentClient().send(
      new GetCommand({ TableName: tableName(), Key: keys.parameters(), ConsistentRead: true }),
    );
    return { ...DEFAULT_PARAMETERS, ...((result.Item?.values as Parameters | undefined) ?? {}) };
  });
}

/** For a writer: read strongly consistent, with the item's revision (updateAtRevision). */
export async function loadParametersForUpdate(): Promise<{ values: Parameters; rev: number }> {
  const result = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: keys.parameters(), ConsistentRead: true }),
  );
  return {
    values: { ...DEFAULT_PARAMETERS, ...((result.Item?.values as Parameters | undefined) ?? {}) },
    rev: Number(result.Item?.rev ?? 0),
  };
}

export function initialiseParameters(transaction: WriteTransaction, values: Parameters): void {
  transaction.put({ ...keys.parameters(), type: 'parameters', values });
}

/**
 * Writes the changes if the parameters are still at `rev` and the catalogue stamp still counts
 * `catalog` (what they were checked against: the legal values, catalogCache.ts).
 */
export async function saveParameterChanges(
  changes: Record<string, ParameterChange>,
  rev: number,
  catalog: number,
  audit: AuditEntry,
): Promise<void> {
  if (Object.keys(changes).length === 0) return;
  const transaction = new WriteTransaction().requireStamp({ catalog });
  updateParameters(transaction, changes, rev);
  recordAudit(transaction, audit);
  await transaction.commit();
}

/** Sets parameters in a transaction, if they are still at `rev` (a renamed default value carries its parameter along). */
export function updateParameters(
  transaction: WriteTransaction,
  changes: Record<string, ParameterChange>,
  rev: number,
): void {
  const expressionNames: Record<string, string> = { '#values': 'values' };
  const expressionValues: Record<string, unknown> = {};
  const assignments = Object.keys(changes).map((name, index) => {
    expressionNames[`#p${index}`] = name;
    expressionValues[`:p${index}`] = changes[name].added;
    return `#values.#p${index} = :p${index}`;
  });
  transaction.updateAtRevision(keys.parameters(), rev, {
    expression: `SET ${assignments.join(', ')}`,
    names: expressionNames,
    values: expressionValues,
  });
}
