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

export async function saveParameterChanges(
  changes: Record<string, ParameterChange>,
  rev: number,
  audit: AuditEntry,
): Promise<void> {
  const names = Object.keys(changes);
  if (names.length === 0) return;
  const transaction = new WriteTransaction();
  const expressionNames: Record<string, string> = { '#values': 'values' };
  const expressionValues: Record<string, unknown> = {};
  const assignments = names.map((name, index) => {
    expressionNames[`#p${index}`] = name;
    expressionValues[`:p${index}`] = changes[name].added;
    return `#values.#p${index} = :p${index}`;
  });
  transaction.updateAtRevision(keys.parameters(), rev, {
    expression: `SET ${assignments.join(', ')}`,
    names: expressionNames,
    values: expressionValues,
  });
  recordAudit(transaction, audit);
  await transaction.commit();
}
