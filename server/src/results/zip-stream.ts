/**
 * A ZIP archive written as it goes (stored entries: PDFs gain little from deflate), so that a
 * chapter's certificates stream to the admin without being held whole in memory. Up to 65,535
 * entries and 4 GB (no ZIP64), far above a cup's chapter.
 */
export class ZipStreamWriter {
  private offset = 0;
  private readonly central: Buffer[] = [];

  /** The local header and data of one file (the caller gives its CRC-32, computed off the event loop). */
  entry(name: string, data: Uint8Array, crc: number): Buffer {
    const nameBytes = Buffer.from(name, 'utf8');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(0, 8); // stored
    local.writeUInt32LE(0, 10); // time, date
    local.writeUInt32LE(crc >>> 0, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(0, 10);
    central.writeUInt32LE(0, 12);
    central.writeUInt32LE(crc >>> 0, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(this.offset, 42);
    this.central.push(central, nameBytes);
    this.offset += local.length + nameBytes.length + data.length;
    return Buffer.concat([local, nameBytes, data]);
  }

  /** The central directory and its end record: the last bytes of the archive. */
  end(): Buffer {
    const directory = Buffer.concat(this.central);
    const count = this.central.length / 2;
    const record = Buffer.alloc(22);
    record.writeUInt32LE(0x06054b50, 0);
    record.writeUInt16LE(count, 8);
    record.writeUInt16LE(count, 10);
    record.writeUInt32LE(directory.length, 12);
    record.writeUInt32LE(this.offset, 16);
    return Buffer.concat([directory, record]);
  }
}
