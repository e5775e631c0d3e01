import { z } from 'zod';
import { flag, integer, list, text } from '../../shared/http/inputSchemas.ts';

export const componentFields = {
  product: text().optional(),
  name: text().optional(),
  description: text().optional(),
  default_assignee: text().optional(),
  default_qa_contact: text().optional(),
  default_cc: list(z.string()).optional(),
  triage_owner: text().optional(),
  default_bug_type: text().optional(),
  is_open: flag().optional(),
  is_active: flag().optional(),
  sort_key: integer().optional(),
};

/** `/rest/component/{id}` or `/rest/component/{product}/{component}`. */
export const componentTarget = { id: integer().optional(), product_name: text().optional(), component: text().optional() };
