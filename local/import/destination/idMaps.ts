/**
 * Names to ids in the target, as the source names things: bugs name users by login, products,
 * components, versions, milestones, keywords, groups by name; Tracker keeps ids (bug.ts). Built
 * from what the catalogue and account phases wrote (their ids are the source's, or found or
 * allocated where the source gives none), and compared as Bugzilla compares names: without case.
 */
export class IdMaps {
  private readonly users = new Map<string, number>();
  private readonly products = new Map<string, number>();
  private readonly components = new Map<string, number>();
  private readonly versions = new Map<string, number>();
  private readonly milestones = new Map<string, number>();
  private readonly keywords = new Map<string, number>();
  private readonly groups = new Map<string, number>();
  private readonly bugTypes = new Map<number, string>();

  constructor(readonly defaultBugType: string) {}

  addUser(login: string, id: number): void {
    this.users.set(login.toLowerCase(), id);
  }
  userId(login: string): number | undefined {
    return this.users.get(login.toLowerCase());
  }

  addProduct(name: string, id: number, defaultBugType: string | null): void {
    this.products.set(name.toLowerCase(), id);
    if (defaultBugType) this.bugTypes.set(id, defaultBugType);
  }
  productId(name: string): number | undefined {
    return this.products.get(name.toLowerCase());
  }
  bugTypeOf(productId: number): string {
    return this.bugTypes.get(productId) ?? this.defaultBugType;
  }

  addComponent(productId: number, name: string, id: number): void {
    this.components.set(`${productId}\u0000${name.toLowerCase()}`, id);
  }
  componentId(productId: number, name: string): number | undefined {
    return this.components.get(`${productId}\u0000${name.toLowerCase()}`);
  }

  addValue(kind: 'version' | 'milestone', productId: number, name: string, id: number): void {
    (kind === 'version' ? this.versions : this.milestones).set(`${productId}\u0000${name.toLowerCase()}`, id);
  }
  valueId(kind: 'version' | 'milestone', productId: number, name: string): number | undefined {
    return (kind === 'version' ? this.versions : this.milestones).get(`${productId}\u0000${name.toLowerCase()}`);
  }

  addKeyword(name: string, id: number): void {
    this.keywords.set(name.toLowerCase(), id);
  }
  keywordId(name: string): number | undefined {
    return this.keywords.get(name.toLowerCase());
  }

  addGroup(name: string, id: number): void {
    this.groups.set(name.toLowerCase(), id);
  }
  groupId(name: string): number | undefined {
    return this.groups.get(name.toLowerCase());
  }
}
