import type { FunctionComponent } from 'preact';
import type { AdminCgi } from '../lib/routes.ts';
import { AdminIndexPage } from './AdminIndexPage.tsx';
import { ChartPage } from './ChartPage.tsx';
import { ClassificationsPage } from './catalog/ClassificationsPage.tsx';
import { CustomFieldsPage } from './catalog/CustomFieldsPage.tsx';
import { FieldValuesPage } from './catalog/FieldValuesPage.tsx';
import { FlagTypesPage } from './catalog/FlagTypesPage.tsx';
import { ProductsPage } from './catalog/ProductsPage.tsx';
import { WorkflowPage } from './catalog/WorkflowPage.tsx';
import { DependencyTreePage } from './DependencyTreePage.tsx';
import { GroupsPage } from './GroupsPage.tsx';
import { KeywordsPage } from './KeywordsPage.tsx';
import { ParametersPage } from './ParametersPage.tsx';
import { ReportPage } from './ReportPage.tsx';
import { UsersPage } from './UsersPage.tsx';

/**
 * The pages of the administration bundle, by cgi name (loaded on demand by App.tsx through
 * AdminPage.tsx). A page receives the address's query.
 */
export type AdminPageComponent = FunctionComponent<{ params: URLSearchParams }>;

export const ADMIN_PAGES: Partial<Record<AdminCgi, AdminPageComponent>> = {
  admin: AdminIndexPage,
  editusers: UsersPage,
  editgroups: GroupsPage,
  editkeywords: KeywordsPage,
  editparams: ParametersPage,
  report: ReportPage,
  chart: ChartPage,
  showdependencytree: DependencyTreePage,
  editproducts: ProductsPage,
  editclassifications: ClassificationsPage,
  editflagtypes: FlagTypesPage,
  editvalues: FieldValuesPage,
  editworkflow: WorkflowPage,
  editfields: CustomFieldsPage,
};
