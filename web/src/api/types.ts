/** Shapes of the API's answers, as far as the app reads them (docs/api.md). */

export interface UserDetail {
  id: number;
  name: string;
  real_name?: string;
  nick?: string;
  email?: string;
}

export interface Flag {
  id: number;
  name: string;
  type_id: number;
  status: string;
  setter: string;
  requestee?: string;
  creation_date?: string;
  modification_date?: string;
}

export interface Bug {
  id: number;
  alias?: string | string[] | null;
  summary: string;
  status: string;
  resolution: string;
  is_open: boolean;
  product: string;
  component: string;
  classification?: string;
  version: string;
  target_milestone: string;
  type?: string;
  priority: string;
  severity: string;
  platform: string;
  op_sys: string;
  assigned_to: string;
  assigned_to_detail?: UserDetail;
  creator: string;
  creator_detail?: UserDetail;
  qa_contact: string;
  cc: string[];
  creation_time: string;
  last_change_time: string;
  deadline?: string | null;
  url: string;
  whiteboard: string;
  keywords: string[];
  see_also: string[];
  groups: string[];
  blocks: number[];
  depends_on: number[];
  dupe_of: number | null;
  duplicates: number[];
  regressed_by?: number[];
  regressions?: number[];
  flags: Flag[];
  comment_count?: number;
  actual_time?: number;
  estimated_time?: number;
  remaining_time?: number;
  update_token?: string;
  tags?: string[];
  is_cc_accessible?: boolean;
  is_creator_accessible?: boolean;
  [custom: string]: unknown;
}

export interface Comment {
  id: number;
  bug_id: number;
  attachment_id: number | null;
  count: number;
  text: string;
  creator: string;
  creation_time: string;
  is_private: boolean;
  is_markdown?: boolean;
  tags?: string[];
}

export interface Attachment {
  id: number;
  bug_id: number;
  data?: string;
  size: number;
  creation_time: string;
  last_change_time: string;
  file_name: string;
  summary: string;
  content_type: string;
  is_private: boolean;
  is_obsolete: boolean;
  is_patch: boolean;
  creator: string;
  flags: Flag[];
}

export interface FieldValue {
  name: string | null;
  sort_key?: number;
  is_active?: boolean;
  is_open?: boolean;
  description?: string;
  visibility_values?: string[];
  can_change_to?: { name: string; comment_required?: boolean }[];
}

export interface FieldDefinition {
  id: number;
  name: string;
  display_name: string;
  type: number;
  is_custom: boolean;
  is_mandatory?: boolean;
  is_on_bug_entry?: boolean;
  visibility_field?: string | null;
  visibility_values?: string[];
  value_field?: string | null;
  values: FieldValue[];
}

export interface FlagType {
  id: number;
  name: string;
  description: string;
  is_active: boolean;
  is_requestable: boolean;
  is_requesteeble: boolean;
  is_multiplicable: boolean;
}

export interface Component {
  id: number;
  name: string;
  description?: string;
  is_active: boolean;
  default_assigned_to?: string;
  default_qa_contact?: string;
  flag_types?: { bug: FlagType[]; attachment: FlagType[] };
}

export interface Product {
  id: number;
  name: string;
  description?: string;
  is_active: boolean;
  default_milestone?: string;
  components: Component[];
  versions: { name: string; is_active: boolean }[];
  milestones: { name: string; is_active: boolean }[];
}

export interface HistoryEntry {
  when: string;
  who: string;
  changes: { field_name: string; removed: string; added: string; attachment_id?: number }[];
}

export interface ApiKey {
  id: number;
  description: string;
  revoked: boolean;
  creation_time?: string;
  last_used?: string | null;
}

export interface User extends UserDetail {
  can_login?: boolean;
  groups?: { id: number; name: string; description?: string }[];
  saved_searches?: { id: number; name: string; query: string }[];
}

export interface UpdateResult {
  id: number;
  alias?: string;
  last_change_time: string;
  changes: Record<string, { added: string; removed: string }>;
}
