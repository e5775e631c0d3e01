/** Bugzilla reports booleans in `changes` (and parameters) as the strings "1" and "0". */
export const flagText = (value: boolean): string => (value ? '1' : '0');
