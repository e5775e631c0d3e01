/**
 * Interning for the index's small vocabularies (status, version, whiteboards, ...): a column
 * holds a small integer per bug, and a criterion tests each distinct value once.
 */

/** Interns the strings of a small vocabulary: each distinct value gets a small code. */
export class Vocabulary {
  readonly values: string[] = [];
  private readonly codes = new Map<string, number>();
  private readonly lowerCodes = new Map<string, number[]>();

  code(value: string): number {
    let code = this.codes.get(value);
    if (code === undefined) {
      code = this.values.length;
      this.values.push(value);
      this.codes.set(value, code);
      const lower = value.toLowerCase();
      this.lowerCodes.set(lower, [...(this.lowerCodes.get(lower) ?? []), code]);
    }
    return code;
  }

  /** Codes of every stored spelling that equals `value` ignoring case. */
  codesOf(value: string): number[] {
    return this.lowerCodes.get(value.toLowerCase()) ?? [];
  }
}
