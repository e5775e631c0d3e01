/**
 * Bugzilla merges the object named in the path with the `ids` and `names` parameters: an
 * all-digit path segment is an id, anything else a name (`GET /rest/product/get?ids=1`).
 */
interface ObjectTargets {
  ids: number[];
  names: string[];
}

export function targetsOf(input: { id_or_name?: string; ids?: number[]; names?: string[] }): ObjectTargets {
  const fromPath = input.id_or_name === undefined ? [] : [input.id_or_name];
  return {
    ids: [...fromPath.filter((part) => /^\d+$/.test(part)).map(Number), ...(input.ids ?? [])],
    names: [...fromPath.filter((part) => !/^\d+$/.test(part)), ...(input.names ?? [])],
  };
}
