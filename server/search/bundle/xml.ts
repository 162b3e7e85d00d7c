/**
 * A small XML reader for the CDC ICD-10-CM files (well-formed, no namespaces, no CDATA). It builds a light tree;
 * the files are ~10 MB, so a tree in memory is fine and keeps the extraction code readable.
 */
export interface XmlNode {
  tag: string;
  attrs: Record<string, string>;
  children: XmlNode[];
  /** Direct text content (concatenated), entity-decoded. */
  text: string;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

export function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
    if (e[0] === '#') {
      const code = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return Number.isFinite(code) ? String.fromCodePoint(code) : m;
    }
    return ENTITIES[e.toLowerCase()] ?? m;
  });
}

export function parseXml(xml: string): XmlNode {
  const root: XmlNode = { tag: '#root', attrs: {}, children: [], text: '' };
  const stack: XmlNode[] = [root];
  const re = /<!--[\s\S]*?-->|<\?[\s\S]*?\?>|<(\/?)([A-Za-z_][\w.-]*)([^>]*?)(\/?)>|([^<]+)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(xml))) {
    if (m[5] !== undefined) {
      const top = stack[stack.length - 1]!;
      top.text += decodeEntities(m[5]);
      continue;
    }
    if (!m[2]) continue; // comment or processing instruction
    if (m[1]) {
      if (stack.length > 1) stack.pop();
      continue;
    }
    const attrs: Record<string, string> = {};
    for (const a of m[3]!.matchAll(/([\w:-]+)\s*=\s*"([^"]*)"/g)) attrs[a[1]!] = decodeEntities(a[2]!);
    const node: XmlNode = { tag: m[2], attrs, children: [], text: '' };
    stack[stack.length - 1]!.children.push(node);
    if (!m[4]) stack.push(node);
  }
  return root;
}

export function child(node: XmlNode, tag: string): XmlNode | undefined {
  return node.children.find((c) => c.tag === tag);
}

export function childrenOf(node: XmlNode, tag: string): XmlNode[] {
  return node.children.filter((c) => c.tag === tag);
}

/** Text of a node including its descendants (e.g. a title with a <nemod>). */
export function deepText(node: XmlNode): string {
  return (node.text + node.children.map(deepText).join(' ')).replace(/\s+/g, ' ').trim();
}

export function* walk(node: XmlNode): Generator<XmlNode> {
  yield node;
  for (const c of node.children) yield* walk(c);
}
