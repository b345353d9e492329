/**
 * Streaming CSV parser: semicolon separator, double-quoted fields with "" escapes and embedded
 * line breaks, CRLF or LF, a leading BOM dropped. Feed chunks with push(), then call end().
 */
export class CsvParser {
  private field = '';
  private record: string[] = [];
  private inQuotes = false;
  /** A quote just closed inside a quoted field: the next char decides if it was an escaped "". */
  private quotePending = false;
  private started = false;

  constructor(private readonly separator = ';') {}

  push(chunk: string): string[][] {
    const out: string[][] = [];
    let text = chunk;
    if (!this.started) {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      if (this.quotePending) {
        this.quotePending = false;
        if (c === '"') {
          this.field += '"';
          continue;
        }
        this.inQuotes = false;
      }
      if (this.inQuotes) {
        if (c === '"') this.quotePending = true;
        else this.field += c;
        continue;
      }
      if (c === '"' && this.field === '') this.inQuotes = true;
      else if (c === this.separator) {
        this.record.push(this.field);
        this.field = '';
      } else if (c === '\n') {
        this.endRecord(out);
      } else if (c === '\r') {
        // CRLF: the \n ends the record; a lone \r is dropped.
      } else this.field += c;
    }
    return out;
  }

  end(): string[][] {
    const out: string[][] = [];
    if (this.quotePending) {
      this.quotePending = false;
      this.inQuotes = false;
    }
    if (this.field !== '' || this.record.length > 0) this.endRecord(out);
    return out;
  }

  private endRecord(out: string[][]) {
    this.record.push(this.field);
    this.field = '';
    const rec = this.record;
    this.record = [];
    // Blank lines carry no record.
    if (!(rec.length === 1 && rec[0].trim() === '')) out.push(rec);
  }
}
