/**
 * Server-sent events, as OpenAI-compatible servers send them: `data: <json>` lines, events separated by a blank
 * line, `data: [DONE]` at the end. The parser accepts LF, CRLF and CR line ends, multi-line data, comments
 * (`: keep-alive`) and `event:` lines, and events split anywhere across network chunks.
 */
export interface SseEvent {
  event: string | null;
  data: string;
}

export class SseParser {
  private buf = '';
  private data: string[] = [];
  private event: string | null = null;

  /** Feed decoded text; returns the events completed by it. */
  push(text: string): SseEvent[] {
    this.buf += text;
    const out: SseEvent[] = [];
    for (;;) {
      const m = /\r\n|\n|\r/.exec(this.buf);
      if (!m) break;
      // a lone CR at the very end may be the first half of CRLF: wait for more
      if (m[0] === '\r' && m.index === this.buf.length - 1) break;
      const line = this.buf.slice(0, m.index);
      this.buf = this.buf.slice(m.index + m[0].length);
      this.line(line, out);
    }
    return out;
  }

  /** End of input: a final event without its blank line still counts. */
  end(): SseEvent[] {
    const out: SseEvent[] = [];
    if (this.buf) this.line(this.buf, out);
    this.buf = '';
    this.line('', out);
    return out;
  }

  private line(line: string, out: SseEvent[]): void {
    if (line === '') {
      if (this.data.length) out.push({ event: this.event, data: this.data.join('\n') });
      this.data = [];
      this.event = null;
      return;
    }
    if (line.startsWith(':')) return;
    const i = line.indexOf(':');
    const field = i < 0 ? line : line.slice(0, i);
    let value = i < 0 ? '' : line.slice(i + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.data.push(value);
    else if (field === 'event') this.event = value;
  }
}

/** One SSE frame carrying JSON (or the literal `[DONE]`). */
export function sseFrame(data: unknown): string {
  return `data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;
}
