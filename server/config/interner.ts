/** Strings numbered in the order first seen: `names[id]` is the string, `id(name)` its number (a new one if unseen). */
export class Interner {
  constructor(
    readonly names: string[] = [],
    private readonly ids = new Map<string, number>(),
  ) {}
  id(name: string): number {
    let i = this.ids.get(name);
    if (i === undefined) {
      i = this.names.length;
      this.names.push(name);
      this.ids.set(name, i);
    }
    return i;
  }
  get(name: string): number | undefined {
    return this.ids.get(name);
  }
}
