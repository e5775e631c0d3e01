import { DEFAULT_BUG_TYPE, DEFAULT_PRIORITY, DEFAULT_SEVERITY } from '../bugFields.ts';
import type { NewBugContext } from './newBugContext.ts';
import { mustEnter, present } from './newBugInput.ts';

export interface NewBugValues {
  opSys: string;
  platform: string;
  priority: string;
  severity: string;
  bugType: string;
}

/**
 * The fields with the installation's legal values (catalog/fieldValues.ts), a disabled value
 * refused: operating system and platform (required unless the installation has a default),
 * priority (chosen by editbugs, or by all with letsubmitterchoosepriority), severity and type.
 */
export function legalValuesOf({ env, input, record, component, editbugs }: NewBugContext): NewBugValues {
  const { parameters, values } = env;
  const platformInput = input.platform ?? input.rep_platform ?? (parameters.defaultplatform || undefined);
  if (!present(input.op_sys) && !parameters.defaultopsys) throw mustEnter('an operating system (op_sys)');
  if (!present(platformInput)) throw mustEnter('a platform');
  const opSys = values.check(
    'op_sys',
    'operating system',
    present(input.op_sys) ? input.op_sys : parameters.defaultopsys,
  );
  const platform = values.check('rep_platform', 'platform', platformInput);

  const mayChoosePriority = editbugs || parameters.letsubmitterchoosepriority === '1';
  // The defaults are checked like op_sys and platform: a value stored before the parameters were
  // checked must not give a bug a priority or severity that does not exist.
  // An empty priority or severity is Bugzilla 5.2's object_not_specified (50); only a missing
  // (or null) one takes the default.
  const blank = (value: unknown) => typeof value === 'string' && value.trim() === '';
  if (mayChoosePriority && blank(input.priority)) throw mustEnter('a Priority');
  if (blank(input.severity)) throw mustEnter('a Severity');
  const priority = values.check(
    'priority',
    'priority',
    present(input.priority) && mayChoosePriority ? input.priority : parameters.defaultpriority || DEFAULT_PRIORITY,
  );
  const severity = values.check(
    'bug_severity',
    'severity',
    present(input.severity) ? input.severity : parameters.defaultseverity || DEFAULT_SEVERITY,
  );
  // Products and components keep their default type by name: read as the value's current name.
  const bugType = present(input.type)
    ? values.check('bug_type', 'bug type', input.type)
    : values.currentName(
        'bug_type',
        component.defaultBugType || record.product.defaultBugType || parameters.default_bug_type || DEFAULT_BUG_TYPE,
      );
  return { opSys, platform, priority, severity, bugType };
}
