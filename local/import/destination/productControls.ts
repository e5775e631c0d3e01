import { loadProducts, putGroupControl } from '../../../shared/storage/catalog/productStore.ts';
import { collectItems, type Item } from '../../../shared/storage/itemCollector.ts';
import type { ImportReport, ReportBuilder } from '../report.ts';
import type { ProductRecord } from '../source/index.ts';
import type { IdMaps } from './idMaps.ts';
import type { TargetWriter } from './targetWriter.ts';

/**
 * Product group controls from a source that does not expose them (stock 5.0 and 5.2 list no
 * `group_controls` over REST). What the bugs show is inferred: a group that every bug of a
 * product is in was, most likely, MANDATORY for members and others on the source (Bugzilla puts
 * each new bug in it), so it is made so on the target, and new bugs filed there are restricted
 * as on the source instead of public. That errs towards restricting. Each product whose bugs
 * carry any group is listed in the report with the exact call that sets its controls, since
 * only the operator knows the rest (SHOWN and DEFAULT groups, entry, canedit). A product that
 * already has controls on the target (set by the operator after an earlier run) is left alone.
 */
export async function inferProductControls(
  products: readonly ProductRecord[],
  context: { ids: IdMaps; writer: TargetWriter; report: ReportBuilder },
): Promise<ImportReport['productControls']> {
  const { ids, writer, report } = context;
  const existing = writer.dryRun ? [] : await loadProducts();
  const listed: ImportReport['productControls'] = [];
  const puts: Item[] = [];
  for (const product of products) {
    if (product.groupControls !== null) continue;
    const seen = report.productGroups.get(product.name.toLowerCase());
    if (!seen || seen.anyGroup.size === 0) continue;
    const inferred = [...seen.everyBug].filter((name) => ids.groupId(name) !== undefined).sort();
    const productId = ids.productId(product.name);
    const hasControls = existing.some((record) => record.product.id === productId && record.groupControls.length > 0);
    if (productId !== undefined && !hasControls)
      for (const name of inferred)
        puts.push(
          ...collectItems((transaction) =>
            putGroupControl(transaction, {
              productId,
              groupId: ids.groupId(name)!,
              entry: false,
              memberControl: 'MANDATORY',
              otherControl: 'MANDATORY',
              canEdit: false,
              editComponents: false,
              editBugs: false,
              canConfirm: false,
            }),
          ),
        );
    const controls = [...seen.anyGroup].sort().map((group) => ({
      group,
      entry: false,
      membercontrol: inferred.includes(group) ? 'MANDATORY' : 'SHOWN',
      othercontrol: inferred.includes(group) ? 'MANDATORY' : 'NA',
      canedit: false,
      editcomponents: false,
      editbugs: false,
      canconfirm: false,
    }));
    listed.push({
      product: product.name,
      inferred: hasControls ? [] : inferred,
      call: `PUT /rest/product/${encodeURIComponent(product.name)} ${JSON.stringify({ group_controls: controls })}`,
    });
  }
  await writer.write(puts);
  if (puts.length > 0) await writer.moveStamp({ catalog: true, users: false });
  return listed;
}
