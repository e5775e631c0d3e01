import * as z from 'zod';
import { flag, list, nameText, text } from '../../shared/http/inputSchemas.ts';

/** Fields a product is created or updated with (Bugzilla's, plus Tracker's group controls). */
const groupControlInput = z.object({
  group: z.union([z.string(), z.number().int()]),
  entry: flag().optional(),
  membercontrol: z.string().optional(),
  othercontrol: z.string().optional(),
  canedit: flag().optional(),
  editcomponents: flag().optional(),
  editbugs: flag().optional(),
  canconfirm: flag().optional(),
});

export const productFields = {
  name: text().optional(),
  description: text().optional(),
  has_unconfirmed: flag().optional(),
  classification: text().optional(),
  default_bug_type: text().optional(),
  default_milestone: nameText().optional(),
  is_open: flag().optional(),
  group_controls: list(groupControlInput, { splitCommas: false }).optional(),
};
