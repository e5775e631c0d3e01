/**
 * What a new installation starts with: Bugzilla's system groups (editbugs is granted to every
 * user by its regexp, as in Bugzilla) and one administrator in the admin group, which implies
 * membership of, and bless rights on, every group.
 */
export interface SystemGroup {
  name: string;
  description: string;
  userRegexp?: string;
}

export const SYSTEM_GROUPS: readonly SystemGroup[] = [
  { name: 'admin', description: 'Administrators' },
  { name: 'tweakparams', description: 'Can change Parameters' },
  { name: 'editusers', description: 'Can edit or disable users' },
  { name: 'creategroups', description: 'Can create and destroy groups' },
  { name: 'editclassifications', description: 'Can create, destroy, and edit classifications' },
  { name: 'editcomponents', description: 'Can create, destroy, and edit components' },
  { name: 'editkeywords', description: 'Can create, destroy, and edit keywords' },
  { name: 'editbugs', description: 'Can edit all bug fields', userRegexp: '.*' },
  { name: 'canconfirm', description: 'Can confirm a bug or mark it a duplicate' },
  { name: 'bz_canusewhineatothers', description: 'Can configure whine reports for other users' },
  { name: 'bz_canusewhines', description: 'User can configure whine reports for self' },
  { name: 'bz_sudoers', description: 'Can perform actions as other users' },
  { name: 'bz_sudo_protect', description: 'Can not be impersonated by other users' },
  { name: 'bz_quip_moderators', description: 'Can moderate quips' },
];

export interface AdminAccount {
  login: string;
  realName: string;
  password: string;
  apiKey: string;
}

export const DEFAULT_ADMIN_LOGIN = 'admin@example.com';
