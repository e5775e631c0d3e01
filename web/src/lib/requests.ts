interface FlagLike {
  id: number;
  name: string;
  status: string;
  setter: string;
  requestee?: string;
}

/** Bug flags asked of a person (`?` with them as requestee) or by them (`?` they set). */
export function pendingRequests<B extends { flags?: FlagLike[] }>(
  bugs: readonly B[],
  login: string,
  role: 'requestee' | 'setter',
): { bug: B; flag: FlagLike }[] {
  const out: { bug: B; flag: FlagLike }[] = [];
  for (const bug of bugs) {
    for (const flag of bug.flags ?? []) {
      if (flag.status === '?' && flag[role] === login) out.push({ bug, flag });
    }
  }
  return out;
}
