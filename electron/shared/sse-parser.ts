/**
 * Incremental Server-Sent Events parser (the WHATWG "event stream interpretation").
 * Fed decoded text in arbitrary chunks; lines may end in LF, CRLF or CR, split anywhere.
 * We parse ourselves because EventSource cannot send an Authorization header.
 */

export interface SseMessage {
  /** The last event ID in force when this event was dispatched ('' when none was ever sent). */
  id: string;
  /** 'message' when the event had no `event:` field. */
  event: string;
  data: string;
}

export interface SseHandlers {
  onMessage(msg: SseMessage): void;
  /** A `:` comment line (the intake's `:hb` heartbeat). */
  onComment?(text: string): void;
  /** A valid `retry:` field, in milliseconds. */
  onRetry?(ms: number): void;
}

export class SseParser {
  private buffer = '';
  /** A chunk ended in CR: an LF starting the next chunk belongs to the same line end. */
  private pendingCr = false;
  private data: string[] = [];
  private eventType = '';
  /** The `id:` seen so far; it counts only once its event block ends (a cut-off event must be sent again). */
  private idBuffer: string;
  private committedId: string;

  constructor(
    private readonly handlers: SseHandlers,
    /** Resume from this id (sent as Last-Event-ID on reconnect). */
    lastEventId = '',
  ) {
    this.idBuffer = lastEventId;
    this.committedId = lastEventId;
  }

  /** The id to send as `Last-Event-ID` on the next connection: that of the last complete event block. */
  get lastEventId(): string {
    return this.committedId;
  }

  push(chunk: string): void {
    if (chunk.length === 0) return;
    if (this.pendingCr && chunk.startsWith('\n')) chunk = chunk.slice(1);
    this.pendingCr = false;
    this.buffer += chunk;
    let start = 0;
    for (;;) {
      const cr = this.buffer.indexOf('\r', start);
      const lf = this.buffer.indexOf('\n', start);
      if (cr === -1 && lf === -1) break;
      let end: number;
      let next: number;
      if (cr !== -1 && (lf === -1 || cr < lf)) {
        end = cr;
        if (cr + 1 === this.buffer.length) {
          // Cannot know yet whether an LF follows: take the line, remember the CR.
          this.pendingCr = true;
          next = cr + 1;
        } else {
          next = this.buffer[cr + 1] === '\n' ? cr + 2 : cr + 1;
        }
      } else {
        end = lf;
        next = lf + 1;
      }
      this.line(this.buffer.slice(start, end));
      start = next;
    }
    this.buffer = this.buffer.slice(start);
  }

  /** The stream ended: an incomplete event is discarded, as the spec says. */
  reset(): void {
    this.idBuffer = this.committedId;
    this.buffer = '';
    this.pendingCr = false;
    this.data = [];
    this.eventType = '';
  }

  private line(line: string): void {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) {
      this.handlers.onComment?.(line.slice(1).trimStart());
      return;
    }
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
      case 'event':
        this.eventType = value;
        break;
      case 'data':
        this.data.push(value);
        break;
      case 'id':
        if (!value.includes('\0')) this.idBuffer = value;
        break;
      case 'retry':
        if (/^\d+$/.test(value)) this.handlers.onRetry?.(Number(value));
        break;
      default:
        break; // unknown fields are ignored
    }
  }

  private dispatch(): void {
    const data = this.data;
    const eventType = this.eventType;
    this.data = [];
    this.eventType = '';
    this.committedId = this.idBuffer;
    if (data.length === 0) return;
    this.handlers.onMessage({ id: this.idBuffer, event: eventType || 'message', data: data.join('\n') });
  }
}
